// Flagfall live page: the tournament view (every board) and the single-board view.
// States arrive over Server-Sent Events (/api/stream); clocks run on locally from
// each snapshot with the display model's formatting (clockfmt.js).
"use strict";
(function () {
  var PAGE = document.body.getAttribute("data-page");
  var boards = {};          // "t/r/b" -> state view (no record text)
  var cards = {};           // "t/r/b" -> DOM elements of that board
  var offset = 0;           // server clock minus local clock, ms
  var received = 0;
  var PIECES = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };
  var FILES = "abcdefghijklmnopqrstuvwxyz";

  // what tests and curious people can read: window.flagfall.boards
  window.flagfall = { boards: boards, received: function () { return received; }, lastAt: 0 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function filterFromPage() {
    var q = new URLSearchParams(location.search);
    if (PAGE === "board") {
      var p = location.pathname.split("/").filter(Boolean); // board, t, r, b
      return { t: decodeURIComponent(p[1] || ""), r: decodeURIComponent(p[2] || ""), b: decodeURIComponent(p[3] || "") };
    }
    return { t: q.get("t"), r: q.get("r"), b: null };
  }
  var FILTER = filterFromPage();

  function streamUrl() {
    var q = [];
    ["t", "r", "b"].forEach(function (k) { if (FILTER[k]) q.push(k + "=" + encodeURIComponent(FILTER[k])); });
    // a board page needs the move list; an overview needs positions and clocks only
    if (PAGE !== "board") q.push("view=summary");
    return "/api/stream" + (q.length ? "?" + q.join("&") : "");
  }

  function serverNow() { return Date.now() + offset; }

  // -- applying stream messages -------------------------------------------

  function apply(msg) {
    var k = msg.k;
    var cur = boards[k];
    if (msg.full) {
      delete msg.full;
      boards[k] = msg;
    } else {
      if (!cur) { refetch(k); return; }
      var from = msg.from;
      if (from !== undefined) {       // a delta of the full view: the moves from index `from` on
        cur.moves.length = from;
        cur.clocks.length = from;
        Array.prototype.push.apply(cur.moves, msg.moves);
        Array.prototype.push.apply(cur.clocks, msg.clocks);
      }
      for (var f in msg) {
        if (f !== "moves" && f !== "clocks" && f !== "from") cur[f] = msg[f];
      }
    }
    received++;
    window.flagfall.lastAt = Date.now();
    render(k);
  }

  function refetch(k) {
    fetch("/api/board/" + k).then(function (r) { return r.ok ? r.json() : null; }).then(function (st) {
      if (!st) return;
      delete st.pgn;
      st.k = k;
      if (PAGE !== "board") {        // as the summary view has it
        st.n = st.moves.length;
        st.last = st.n ? st.moves[st.n - 1] : null;
        delete st.moves;
        delete st.clocks;
      }
      if (!boards[k] || boards[k].seq < st.seq) { boards[k] = st; render(k); }
    });
  }

  function connect() {
    var conn = document.getElementById("conn");
    var es = new EventSource(streamUrl());
    es.addEventListener("hello", function (ev) {
      var h = JSON.parse(ev.data);
      offset = h.now - Date.now();
      conn.textContent = "live";
      conn.className = "conn on";
    });
    // one `u` frame per tick carries every board that changed since the last one
    es.addEventListener("u", function (ev) { JSON.parse(ev.data).forEach(apply); });
    es.onerror = function () { conn.textContent = "reconnecting"; conn.className = "conn off"; };
  }

  // -- drawing -------------------------------------------------------------

  function cellClass(game, ch) {
    if (ch === ".") return null;
    if (game === "chess") return ch === ch.toUpperCase() ? "pc white" : "pc black";
    if (ch === "w" || ch === "W" || ch === "x") return "disc white" + (ch === "W" ? " king" : "");
    if (ch === "b" || ch === "B" || ch === "o") return "disc black" + (ch === "B" ? " king" : "");
    if (ch === "*") return "disc marked";
    return null;
  }

  function drawBoard(st, big) {
    var grid = st.grid, rows = grid.length, cols = grid[0].length;
    var flip = st.orientation === "black";
    var hi = {};
    (st.last_move || []).forEach(function (c) { hi[c[0] + "," + c[1]] = true; });
    var box = el("div", "grid" + (big ? " big" : "") + " g-" + st.game);
    box.style.gridTemplateColumns = "repeat(" + cols + ", 1fr)";
    box.style.gridTemplateRows = "repeat(" + rows + ", 1fr)";
    box.style.aspectRatio = cols + " / " + rows;
    for (var i = 0; i < rows; i++) {
      var r = flip ? rows - 1 - i : i;
      for (var j = 0; j < cols; j++) {
        var c = flip ? cols - 1 - j : j;
        var ch = grid[r].charAt(c);
        var sq = el("div", "sq " + ((r + c) % 2 ? "dark" : "light") + (hi[r + "," + c] ? " hi" : ""));
        var pc = cellClass(st.game, ch);
        if (pc) {
          var p = el("span", pc, st.game === "chess" ? PIECES[ch.toUpperCase()] : "");
          sq.appendChild(p);
        }
        if (big && st.game === "chess") {
          if (j === 0) sq.appendChild(el("i", "rank", String(rows - r)));
          if (i === rows - 1) sq.appendChild(el("i", "file", FILES.charAt(c)));
        }
        sq.setAttribute("data-sq", r + "," + c);
        box.appendChild(sq);
      }
    }
    return box;
  }

  function player(st, side) {
    var tag = side === "white" ? "White" : "Black";
    var name = (st.tags && st.tags[tag]) || "?";
    var elo = st.tags && st.tags[tag + "Elo"];
    return name + (elo ? " (" + elo + ")" : "");
  }

  function clockRow(st, side, parts) {
    var idx = side === "white" ? 0 : 1;
    var row = el("div", "player " + side);
    row.appendChild(el("span", "who", (st.side_names ? st.side_names[idx] : side) + ": " + player(st, side)));
    var clk = el("span", "clock", "");
    clk.setAttribute("data-side", side);
    row.appendChild(clk);
    parts[side] = clk;
    return row;
  }

  function updateClocks(k) {
    var st = boards[k], c = cards[k];
    if (!st || !c) return;
    var now = serverNow();
    ["white", "black"].forEach(function (side) {
      var e = c.clocks[side];
      if (!e) return;
      var ms = clockfmt.sideMs(st.clock, side, now);
      var text = clockfmt.formatMs(ms, st.clock.tc === "-");
      if (e.textContent !== text) e.textContent = text;
      var cls = "clock" + (st.clock.running === side && !st.clock.flag ? " running" : "")
        + (st.clock.flag === side ? " flagged" : "")
        + (st.clock.running === side && now - st.clock.at_ms < (st.clock.delay_ms || 0) ? " delay" : "")
        + (ms < clockfmt.TENTHS_BELOW_MS && st.clock.tc !== "-" ? " low" : "");
      if (e.className !== cls) e.className = cls;
    });
  }

  function statusText(st) {
    if (st.result && st.result !== "*") return st.result;
    if (st.status === "playing") return st.to_move === "white" ? st.side_names[0] + " to move" : st.side_names[1] + " to move";
    return st.status;
  }

  function lastMoveText(st) {
    var n = st.moves ? st.moves.length : st.n;      // summary view: `n` moves, the `last` one
    if (!n) return "start";
    var num = Math.floor((n + 1) / 2);
    return num + (n % 2 ? ". " : "... ") + (st.moves ? st.moves[n - 1] : st.last);
  }

  function buildCard(k, st, big) {
    var root = el("article", "card" + (big ? " wide" : ""));
    root.setAttribute("data-board", k);
    var head = el("div", "card-head");
    var title = big ? el("span", "bname", "Board " + st.board) : el("a", "bname", "Board " + st.board);
    if (!big) title.href = "/board/" + k;
    head.appendChild(title);
    head.appendChild(el("span", "round", (st.tags && st.tags.Event ? st.tags.Event + " · " : "") + "round " + st.round));
    root.appendChild(head);
    var clocks = {};
    var top = st.orientation === "black" ? "white" : "black";
    var bottom = top === "white" ? "black" : "white";
    root.appendChild(clockRow(st, top, clocks));
    root.appendChild(drawBoard(st, big));
    root.appendChild(clockRow(st, bottom, clocks));
    var foot = el("div", "card-foot");
    var last = el("span", "lastmove", lastMoveText(st));
    var status = el("span", "status s-" + st.status, statusText(st));
    foot.appendChild(last);
    foot.appendChild(status);
    root.appendChild(foot);
    if (st.alert) root.appendChild(el("div", "alert", st.alert));
    return { root: root, clocks: clocks, seq: st.seq };
  }

  function render(k) {
    var st = boards[k];
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    if (PAGE === "board") { renderSingle(k, st); return; }
    var container = document.getElementById("boards");
    var card = buildCard(k, st, false);
    var old = cards[k];
    if (old) container.replaceChild(card.root, old.root);
    else insertSorted(container, k, card.root);
    cards[k] = card;
    updateClocks(k);
    feedLinks();
  }

  function natural(a, b) {
    var pa = a.split("/"), pb = b.split("/");
    for (var i = 0; i < 3; i++) {
      if (pa[i] === pb[i]) continue;
      var na = /^\d+$/.test(pa[i]), nb = /^\d+$/.test(pb[i]);
      if (na && nb) return parseInt(pa[i], 10) - parseInt(pb[i], 10);
      return pa[i] < pb[i] ? -1 : 1;
    }
    return 0;
  }

  function insertSorted(container, k, node) {
    var keys = Object.keys(cards).sort(natural);
    for (var i = 0; i < keys.length; i++) {
      if (natural(k, keys[i]) < 0) { container.insertBefore(node, cards[keys[i]].root); return; }
    }
    container.appendChild(node);
  }

  function feedLinks() {
    var nav = document.getElementById("feeds");
    var rounds = {};
    Object.keys(boards).forEach(function (k) {
      var st = boards[k];
      var fmt = st.game === "chess" ? "pgn" : (st.game === "minzu" ? null : "pdn");
      if (fmt) rounds["/feed/" + st.tournament + "/" + st.round + "." + fmt] = st.tournament + " round " + st.round + " " + fmt.toUpperCase();
    });
    var urls = Object.keys(rounds).sort();
    if (nav.getAttribute("data-urls") === urls.join(" ")) return;
    nav.setAttribute("data-urls", urls.join(" "));
    nav.textContent = "";
    urls.forEach(function (u) { var a = el("a", "feed", rounds[u]); a.href = u; nav.appendChild(a); });
  }

  // -- single board page -----------------------------------------------------

  function renderSingle(k, st) {
    document.title = player(st, "white") + " - " + player(st, "black") + " · Flagfall live";
    var area = document.getElementById("board-area");
    var card = buildCard(k, st, true);
    area.textContent = "";
    area.appendChild(card.root);
    cards[k] = card;
    updateClocks(k);
    var info = document.getElementById("info");
    info.textContent = "";
    info.appendChild(el("p", "players", player(st, "white") + " \u2013 " + player(st, "black")));
    var meta = [];
    ["Event", "Site", "Date", "Round"].forEach(function (t) { if (st.tags[t]) meta.push(st.tags[t]); });
    if (st.clock.tc) meta.push("time control " + st.clock.tc);
    info.appendChild(el("p", "meta", meta.join(" · ")));
    info.appendChild(el("p", "result", "Result: " + st.result + " (" + st.status + ")"));
    var nav = document.getElementById("feeds");
    nav.textContent = "";
    var fmt = st.game === "chess" ? "pgn" : (st.game === "minzu" ? "txt" : "pdn");
    var a = el("a", "feed", fmt.toUpperCase() + " of this game"); a.href = "/feed/" + k + "." + fmt; nav.appendChild(a);
    var j = el("a", "feed", "JSON"); j.href = "/api/board/" + k; nav.appendChild(j);
    var ol = document.getElementById("movelist");
    ol.textContent = "";
    for (var i = 0; i < st.moves.length; i += 2) {
      var li = el("li", "mv");
      li.appendChild(el("span", "san w", st.moves[i]));
      li.appendChild(el("span", "t", clockAfter(st, i)));
      if (i + 1 < st.moves.length) {
        li.appendChild(el("span", "san b", st.moves[i + 1]));
        li.appendChild(el("span", "t", clockAfter(st, i + 1)));
      }
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  function clockAfter(st, i) {
    var c = st.clocks[i];
    if (!c) return "";
    return clockfmt.formatMs(c[i % 2], st.clock.tc === "-");
  }

  function arbiterSetup() {
    if (PAGE !== "board") return;
    var k = FILTER.t + "/" + FILTER.r + "/" + FILTER.b;
    var tok = document.getElementById("arb-token");
    tok.value = sessionStorage.getItem("flagfall-token") || "";
    var out = document.getElementById("arb-out");
    function send(body) {
      sessionStorage.setItem("flagfall-token", tok.value);
      fetch("/api/board/" + k + "/arbiter", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + tok.value },
        body: JSON.stringify(body)
      }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
        .then(function (x) { out.textContent = x[0] === 200 ? "done: " + body.action : "refused (" + x[0] + "): " + x[1].error; })
        .catch(function (e) { out.textContent = "failed: " + e; });
    }
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("arb-result-go", function () { send({ action: "result", result: document.getElementById("arb-result").value }); });
    on("arb-clock-go", function () {
      send({ action: "clock", side: document.getElementById("arb-side").value,
             delta_ms: Math.round(parseFloat(document.getElementById("arb-secs").value) * 1000) });
    });
    on("arb-fix-go", function () {
      send({ action: "fix_move", ply: parseInt(document.getElementById("arb-ply").value, 10) - 1,
             move: document.getElementById("arb-move").value });
    });
    on("arb-promo-go", function () { send({ action: "promotion", piece: document.getElementById("arb-piece").value }); });
    on("arb-restart-go", function () { if (confirm("Restart this board from the start position?")) send({ action: "restart" }); });
  }

  setInterval(function () { Object.keys(cards).forEach(updateClocks); }, 100);
  arbiterSetup();
  connect();
})();
