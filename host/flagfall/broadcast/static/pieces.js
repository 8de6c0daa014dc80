// A board drawn, on every page (the overview app.js, the board page board.js, the arbiter's dashboard
// arbiter.js): Flagfall's own SVG pieces (MIT, like the rest of the project), solid shapes with a dark
// outline, so a white piece reads as clearly as a black one even on a 30 px overview square (chess pieces
// on a 45 x 45 box; discs and stones for draughts and minzu on the same box); pieces.board, a whole board
// with the position in words for screen readers; pieces.card, a live board's card (players, clocks, the
// board, the last move and the status) as the overview and the board page show it. Words come from
// clockfmt.js (clockfmt, boardstate), loaded before this file.
"use strict";
(function (root) {
  var NS = "http://www.w3.org/2000/svg";
  var PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };
  var BASE = "M11.5 39.5 h22 v-3.5 h-22 z";
  // [outline paths], [detail paths drawn in the contrasting colour]
  var CHESS = {
    p: [["M22.5 9a5 5 0 0 0-3.2 8.9C16.8 19.3 15 22 15 25.5c0 1.6.5 3 1.3 4.2C14 31.4 12.5 34 12.5 36.5h20" +
         "c0-2.5-1.5-5.1-3.8-6.8.8-1.2 1.3-2.6 1.3-4.2 0-3.5-1.8-6.2-4.3-7.6A5 5 0 0 0 22.5 9z", BASE], []],
    r: [["M12 12h4v3h4v-3h5v3h4v-3h4v7l-3 3v10.5l3 3H12l3-3V22l-3-3z", BASE],
        ["M15.5 22h14", "M15.5 32.5h14"]],
    n: [["M14 36.5c0-6 3.5-9.5 7-12.5 1.2-1 1.5-2.5.5-3.3l-6 3.3-3-1.2-1.5-3 6-7.5 1-4.3 2.2 2.3" +
         " 2-2.8 1.3 3.4C30 12.5 33 18 33 25v11.5z", BASE],
        ["M17.5 16.5h.1", "M24.5 12.5c2.5 1.5 5 5.5 5 10"]],
    b: [["M22.5 6.5a2.5 2.5 0 1 0 0.01 0zM22.5 10c-5 4-8 8.5-8 13 0 3.5 2 6 3.5 7.5l-2.5 6h14l-2.5-6" +
         "c1.5-1.5 3.5-4 3.5-7.5 0-4.5-3-9-8-13z", BASE],
        ["M22.5 16v8", "M18.5 20h8", "M18 30.5h9"]],
    q: [["M9 13.5a2.2 2.2 0 1 0 .01 0zM16 10a2.2 2.2 0 1 0 .01 0zM22.5 8.5a2.2 2.2 0 1 0 .01 0z" +
         "M29 10a2.2 2.2 0 1 0 .01 0zM36 13.5a2.2 2.2 0 1 0 .01 0z" +
         "M9.5 16l4 15.5h18l4-15.5-6.5 8-3-10.5-3.5 10.5-3.5-10.5-3 10.5z", "M13 31.5h19l1.5 5h-22z", BASE],
        ["M14 34h17"]],
    k: [["M21 4.5h3v3h3v3h-3v3.5h-3v-3.5h-3v-3h3z",
         "M22.5 15c-3 0-4 2.5-4 4.5C14 17 8 19 8.5 25c.4 4 4 6.5 4.5 11.5h19c.5-5 4.1-7.5 4.5-11.5" +
         ".5-6-5.5-8-10-5.5 0-2-1-4.5-4-4.5z", BASE],
        ["M22.5 19.5v10", "M13.5 31h18"]],
  };

  function svg(cls) {
    var s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 45 45");
    s.setAttribute("class", cls);
    s.setAttribute("aria-hidden", "true");
    return s;
  }

  function path(d, fill, stroke, width) {
    var p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", fill);
    p.setAttribute("stroke", stroke);
    p.setAttribute("stroke-width", width);
    p.setAttribute("stroke-linejoin", "round");
    p.setAttribute("stroke-linecap", "round");
    return p;
  }

  // A chess piece: ch is a grid character (PNBRQK white, pnbrqk black).
  function chess(ch) {
    var white = ch !== ch.toLowerCase();
    var shape = CHESS[ch.toLowerCase()];
    if (!shape) return null;
    var s = svg("piece " + (white ? "white" : "black"));
    var fill = white ? "#fafafa" : "#202020", line = white ? "#1a1a1a" : "#000";
    shape[0].forEach(function (d) { s.appendChild(path(d, fill, line, 1.5)); });
    shape[1].forEach(function (d) { s.appendChild(path(d, "none", white ? "#1a1a1a" : "#e8e8e8", 1.3)); });
    var name = PIECE_NAMES[ch.toLowerCase()];
    s.setAttribute("data-piece", (white ? "white " : "black ") + name);
    return s;
  }

  function circle(s, r, fill, stroke, width) {
    var c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", "22.5");
    c.setAttribute("cy", "22.5");
    c.setAttribute("r", r);
    c.setAttribute("fill", fill);
    c.setAttribute("stroke", stroke);
    c.setAttribute("stroke-width", width);
    s.appendChild(c);
  }

  // A draughts man or king, or a minzu stone: w W b B (draughts), x o * (minzu).
  function disc(ch) {
    var light = ch === "w" || ch === "W" || ch === "x";
    var marked = ch === "*";
    var king = ch === "W" || ch === "B";
    var s = svg("piece disc " + (marked ? "marked" : light ? "white" : "black") + (king ? " king" : ""));
    var fill = marked ? "#ffb300" : light ? "#f7f3ea" : "#222", line = light || marked ? "#4a4a4a" : "#000";
    circle(s, 17, fill, line, 2);
    circle(s, 11.5, "none", light || marked ? "#9e9e9e" : "#555", 1.5);
    if (king) s.appendChild(path("M15 27l-1.5-9 5 4 4-7 4 7 5-4-1.5 9z", "#d4a017", "#7a5a00", 1.2));
    s.setAttribute("data-piece", (marked ? "marked" : light ? "light" : "dark") + (king ? " king" : (ch === "x" || ch === "o" ? " stone" : " man")));
    return s;
  }

  function piece(game, ch) {
    if (ch === ".") return null;
    if (game === "chess" || game === "chess960") return chess(ch);
    if ("wWbBxo*".indexOf(ch) >= 0) return disc(ch);
    return null;
  }

  var FILES = "abcdefghijklmnopqrstuvwxyz";
  var ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  function family(game) { return game === "chess" || game === "chess960" ? "chess" : (game === "minzu" ? "minzu" : "draughts"); }

  function isDark(r, c) { return (r + c) % 2 === 1; }

  // draughts squares are numbered along the dark squares, row by row from the top (1-50, 1-32)
  function draughtsNumber(grid, r, c) {
    var cols = grid[0].length;
    return isDark(r, c) ? Math.floor((r * cols + c) / 2) + 1 : null;
  }

  function div(cls, text) {
    var e = document.createElement("div");
    e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function coord(cls, text) {
    var e = document.createElement("i");
    e.className = cls;
    e.textContent = text;
    return e;
  }

  // A board: grid rows of cells (the live state's `grid`), with pieces and coordinates. opts: last
  // (cells [row, col] of the last move, highlighted), flip, big (chess and minzu coordinates), marks
  // ({"row,col": class} added to those squares), piece (function(row, col, ch) -> the cell to draw,
  // default ch), label (the board becomes one image with this label for assistive technology, its
  // squares out of the accessibility tree).
  function board(game, grid, opts) {
    opts = opts || {};
    var rows = grid.length, cols = grid[0].length, flip = !!opts.flip, big = !!opts.big, fam = family(game);
    var hi = {}, marks = opts.marks || {};
    (opts.last || []).forEach(function (c) { hi[c[0] + "," + c[1]] = true; });
    var box = div("grid" + (big ? " big" : "") + " g-" + game + " f-" + fam + (flip ? " flipped" : ""));
    box.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
    box.style.gridTemplateRows = "repeat(" + rows + ", minmax(0, 1fr))";
    box.style.aspectRatio = cols + " / " + rows;
    for (var i = 0; i < rows; i++) {
      var r = flip ? rows - 1 - i : i;
      for (var j = 0; j < cols; j++) {
        var c = flip ? cols - 1 - j : j;
        var key = r + "," + c;
        var ch = opts.piece ? opts.piece(r, c, grid[r].charAt(c)) : grid[r].charAt(c);
        var sq = div("sq " + (isDark(r, c) ? "dark" : "light") + (hi[key] ? " hi" : "") + (marks[key] ? " " + marks[key] : ""));
        var pc = piece(game, ch);
        if (pc) sq.appendChild(pc);
        if (fam === "chess" && big) {
          if (j === 0) sq.appendChild(coord("rank", String(rows - r)));
          if (i === rows - 1) sq.appendChild(coord("file", FILES.charAt(c)));
        } else if (fam === "draughts" && isDark(r, c)) {
          sq.appendChild(coord("num", String(draughtsNumber(grid, r, c))));
        } else if (fam === "minzu" && big) {
          if (j === 0) sq.appendChild(coord("rank", ROWS.charAt(r)));
          if (i === rows - 1) sq.appendChild(coord("file", String(c)));
        }
        sq.setAttribute("data-sq", key);
        box.appendChild(sq);
      }
    }
    if (!opts.label) return box;
    var wrap = div("board-img");
    wrap.setAttribute("role", "img");
    wrap.setAttribute("aria-label", opts.label);
    box.setAttribute("aria-hidden", "true");
    wrap.appendChild(box);
    return wrap;
  }

  // -- a square's and a piece's names, the position in words -------------------------

  function squareName(game, grid, r, c) {
    var fam = family(game);
    if (fam === "chess") return FILES.charAt(c) + (grid.length - r);
    if (fam === "minzu") return ROWS.charAt(r) + c;
    return String(draughtsNumber(grid, r, c));
  }

  function pieceName(game, ch) {
    var fam = family(game);
    if (fam === "chess") return (ch === ch.toUpperCase() ? "white " : "black ") + PIECE_NAMES[ch.toLowerCase()];
    if (fam === "minzu") return ch === "x" ? "light stone" : (ch === "o" ? "dark stone" : "marked stone");
    return (ch === "w" || ch === "W" ? "white " : "black ") + (ch === "W" || ch === "B" ? "king" : "man");
  }

  // "white king g1, white rook f1, ...; black ...": what a screen reader reads for a board
  function positionText(game, grid) {
    var groups = {}, order = [];
    for (var r = 0; r < grid.length; r++) {
      for (var c = 0; c < grid[r].length; c++) {
        var ch = grid[r].charAt(c);
        if (ch === ".") continue;
        var nm = pieceName(game, ch);
        if (!groups[nm]) { groups[nm] = []; order.push(nm); }
        groups[nm].push(squareName(game, grid, r, c));
      }
    }
    order.sort();
    function plural(nm) { return /man$/.test(nm) ? nm.replace(/man$/, "men") : nm + "s"; }
    return order.map(function (nm) { return (groups[nm].length > 1 ? plural(nm) : nm) + " " + groups[nm].join(" "); }).join("; ") || "empty board";
  }

  // -- page elements ---------------------------------------------------------------

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // a page asked for with ?embed=1 sits in another site's frame: its links open a tab of their own
  var EMBED = typeof location !== "undefined" && new URLSearchParams(location.search).get("embed") === "1";

  function link(cls, text, href) {
    var a = el("a", cls, text);
    a.href = href;
    if (EMBED) { a.target = "_blank"; a.rel = "noopener"; }   // out of the frame, into a tab of its own
    return a;
  }

  // a federation's flag (shipped with the page: static/flags, flag-icons, MIT), the code where none is shipped
  function flag(fed) {
    if (!/^[A-Z]{3}$/.test(fed || "")) return null;
    var img = el("img", "flag");
    img.src = "/static/flags/" + fed + ".svg";
    img.alt = fed;
    img.title = fed;
    img.width = 16;
    img.height = 12;
    img.addEventListener("error", function () { img.replaceWith(el("span", "fed", fed)); });
    return img;
  }

  // -- a live board's card --------------------------------------------------------------

  function playerLabel(st, side, cls) {
    var B = root.boardstate;
    var who = el("span", cls);
    var fl = flag(B.tag(st, side, "Fed"));
    if (fl) who.appendChild(fl);
    var t = B.tag(st, side, "Title");
    if (t) who.appendChild(el("abbr", "title", t));
    who.appendChild(el("span", "pname", B.name(st, side)));
    var elo = B.tag(st, side, "Elo");
    if (elo) who.appendChild(el("span", "elo", elo));
    who.title = B.sideName(st, side) + ": " + B.fullPlayer(st, side);     // the whole name, if it is ever cut
    return who;
  }

  function clockRow(st, side, faces) {
    var B = root.boardstate;
    var row = el("div", "player " + side);
    var dot = el("span", "side s-" + side);
    dot.title = B.sideName(st, side);
    dot.setAttribute("aria-label", B.sideName(st, side));
    row.appendChild(dot);
    row.appendChild(playerLabel(st, side, "who"));
    var clk = el("span", "clock", "");
    clk.setAttribute("data-side", side);
    row.appendChild(clk);
    faces[side] = clk;
    return row;
  }

  // A board's card: its title (a link to the board's page unless `big`), the players with their clocks,
  // the board (the live one, or `shown`: {grid, last_move} of the ply `view` the board page steps to),
  // the last move and the status. opts: big, flipped (by the viewer), shown, view (null: live).
  // Returns {root, clocks: {white, black} faces, since, seq}: tick() keeps the faces running.
  function card(k, st, opts) {
    var B = root.boardstate;
    var big = !!opts.big, shown = opts.shown || null, view = opts.view === undefined ? null : opts.view;
    var box = el("article", "card" + (big ? " wide" : ""));
    box.setAttribute("data-board", k);
    var head = el("div", "card-head");
    head.appendChild(big ? el("span", "bname", "Board " + st.board) : link("bname", "Board " + st.board, "/board/" + k));
    var rl = el("span", "round", B.roundLabel(st));
    rl.title = rl.textContent;
    head.appendChild(rl);
    box.appendChild(head);
    var faces = {};
    var flip = (st.orientation === "black") !== (big && !!opts.flipped);
    var top = flip ? "white" : "black";
    var bottom = top === "white" ? "black" : "white";
    box.appendChild(clockRow(st, top, faces));
    var grid = shown ? shown.grid : st.grid;
    var label = "Board " + st.board + ", " + st.game + ", " + B.player(st, "white") + " against " + B.player(st, "black")
      + ", " + B.lastMoveText(st, view);
    if (view !== null && !shown) {
      // an earlier move whose position is not here yet: never the live board under that move's label
      var wait = el("div", "grid unknown" + (big ? " big" : ""), "position after move " + view + " not known yet");
      wait.style.aspectRatio = st.grid[0].length + " / " + st.grid.length;
      box.appendChild(wait);
    } else {
      box.appendChild(board(st.game, grid, { last: shown ? shown.last_move : st.last_move, flip: flip, big: big,
                                             label: label + ": " + positionText(st.game, grid) }));
    }
    box.appendChild(clockRow(st, bottom, faces));
    var foot = el("div", "card-foot");
    foot.appendChild(el("span", "lastmove", B.lastMoveText(st, view)));
    var since = el("span", "since", "");
    since.title = "time since the last move";
    foot.appendChild(since);
    // a move viewed: the footer says where in the game, not who moves now
    foot.appendChild(el("span", "status s-" + st.status, view === null ? B.statusText(st) : "move " + view + " of " + B.count(st)));
    box.appendChild(foot);
    return { root: box, clocks: faces, since: since, seq: st.seq };
  }

  // A card's clock faces at serverNow (ms): run on from the state's clock, or as they stood after the
  // ply `view` (null: live); "N s ago" since the last move while live.
  function tick(c, st, now, view) {
    var B = root.boardstate, fmt = root.clockfmt;
    var past = view !== null && (view === 0 ? [B.startMs(st, "white"), B.startMs(st, "black")] : st.clocks && st.clocks[view - 1]);
    ["white", "black"].forEach(function (side) {
      var e = c.clocks[side];
      if (!e) return;
      // a board whose device is away (unplugged, silent) shows its clock as last read, as the dashboard does
      var frozen = !past && B.deviceAway(st);
      var ms = past ? past[side === "white" ? 0 : 1] : frozen ? st.clock[side + "_ms"] : fmt.sideMs(st.clock, side, now);
      var unknown = !fmt.known(ms);
      var text = fmt.faceText(ms, st.clock.tc === "-");
      if (e.textContent !== text) e.textContent = text;
      var running = st.clock.running === side && !st.clock.flag && !frozen;
      var cls = past ? "clock past" : "clock" + (running ? " running" : "") + (frozen ? " frozen" : "")
        + (st.clock.flag === side ? " flagged" : "")
        + (running && now - st.clock.at_ms < (st.clock.delay_ms || 0) ? " delay" : "")
        + (!unknown && ms < fmt.TENTHS_BELOW_MS && st.clock.tc !== "-" ? " low" : "");
      if (e.className !== cls) e.className = cls;
    });
    if (c.since) {
      var text2 = "";
      if (view === null && st.result === "*" && st.moved_at && B.count(st)) text2 = B.ago(now - st.moved_at) + " ago";
      if (c.since.textContent !== text2) c.since.textContent = text2;
    }
  }

  root.pieces = { piece: piece, board: board, family: family, draughtsNumber: draughtsNumber,
                  positionText: positionText, el: el, link: link, flag: flag, playerLabel: playerLabel,
                  card: card, tick: tick, EMBED: EMBED };
})(this);
