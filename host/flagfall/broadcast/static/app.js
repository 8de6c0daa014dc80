// Flagfall live page: the tournament view (every board, as boards or as an overview
// list) and the single-board view (move list, stepping through the moves, flip,
// earlier games, arbiter panel). States arrive over Server-Sent Events
// (/api/stream, `u` frames: docs/broadcast.md); clocks run on locally from each
// snapshot with the display model's formatting (clockfmt.js).
"use strict";
(function () {
  var PAGE = document.body.getAttribute("data-page");
  var QUERY = new URLSearchParams(location.search);
  var LIST = PAGE !== "board" && QUERY.get("view") === "list";
  var ARCHIVED = PAGE === "board" && /^\d+$/.test(QUERY.get("game") || "") ? QUERY.get("game") : null;
  var boards = {};          // "t/r/b" -> state view (no record text)
  var cards = {};           // "t/r/b" -> DOM elements of that board
  var offset = 0;           // server clock minus local clock, ms
  var received = 0;
  // the board page: which ply is shown (null: live), flipped or not, the positions per ply
  var nav = { view: null, flipped: false, plies: null, pliesSeq: -1, loading: false };

  // what tests and curious people can read: window.flagfall
  window.flagfall = { boards: boards, received: function () { return received; }, lastAt: 0,
                      nav: function () { return { view: nav.view, flipped: nav.flipped }; } };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function filterFromPage() {
    if (PAGE === "board") {
      var p = location.pathname.split("/").filter(Boolean); // board, t, r, b
      return { t: decodeURIComponent(p[1] || ""), r: decodeURIComponent(p[2] || ""), b: decodeURIComponent(p[3] || "") };
    }
    return { t: QUERY.get("t"), r: QUERY.get("r"), b: null };
  }
  var FILTER = filterFromPage();
  var KEY = PAGE === "board" ? FILTER.t + "/" + FILTER.r + "/" + FILTER.b : null;

  function streamUrl() {
    var q = [];
    ["t", "r", "b"].forEach(function (k) { if (FILTER[k]) q.push(k + "=" + encodeURIComponent(FILTER[k])); });
    // a board page needs the move list; an overview needs positions and clocks only
    if (PAGE !== "board") q.push("view=summary");
    return "/api/stream" + (q.length ? "?" + q.join("&") : "");
  }

  function serverNow() { return Date.now() + offset; }

  function getJson(url, headers) {
    return fetch(url, { headers: headers || {} }).then(function (r) {
      return r.json().then(function (j) { return [r.status, j]; }, function () { return [r.status, null]; });
    });
  }

  // -- applying stream messages -------------------------------------------

  function apply(msg) {
    var k = msg.k;
    var cur = boards[k];
    var before = cur ? { n: count(cur), result: cur.result } : null;
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
    var st = boards[k];
    // a board that starts its next game has one more earlier game to list (rare: fetched, jittered);
    // a result is known here already (drawn from the stream)
    if (before && (count(st) < before.n || (before.result !== "*" && st.result === "*"))) gamesChanged();
    else if ((before ? before.result !== st.result : st.result !== "*") && PAGE !== "board") drawFinishedSoon();
    render(k);
  }

  function count(st) { return st.moves ? st.moves.length : st.n; }

  function refetch(k) {
    getJson("/api/board/" + k).then(function (x) {
      var st = x[1];
      if (x[0] !== 200 || !st) return;
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
    if (ARCHIVED !== null) { loadArchived(); return; }
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

  function drawBoard(game, grid, lastMove, flip, big) {
    return window.pieces.board(game, grid, { last: lastMove, flip: flip, big: big });
  }

  function name(st, side) { return (st.tags && st.tags[side === "white" ? "White" : "Black"]) || "?"; }

  function player(st, side) {
    var tag = side === "white" ? "White" : "Black";
    var elo = st.tags && st.tags[tag + "Elo"];
    return name(st, side) + (elo ? " (" + elo + ")" : "");
  }

  function sideName(st, side) { return st.side_names ? st.side_names[side === "white" ? 0 : 1] : side; }

  function clockRow(st, side, parts) {
    var row = el("div", "player " + side);
    var text = sideName(st, side) + ": " + player(st, side);
    var who = el("span", "who", text);
    who.title = text;                          // the whole name, when it is cut short
    row.appendChild(who);
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
    var past = PAGE === "board" && nav.view !== null && nav.view > 0 && st.clocks && st.clocks[nav.view - 1];
    ["white", "black"].forEach(function (side) {
      var e = c.clocks[side];
      if (!e) return;
      var ms = past ? past[side === "white" ? 0 : 1] : clockfmt.sideMs(st.clock, side, now);
      var text = clockfmt.formatMs(ms, st.clock.tc === "-");
      if (e.textContent !== text) e.textContent = text;
      var cls = past ? "clock past" : "clock" + (st.clock.running === side && !st.clock.flag ? " running" : "")
        + (st.clock.flag === side ? " flagged" : "")
        + (st.clock.running === side && now - st.clock.at_ms < (st.clock.delay_ms || 0) ? " delay" : "")
        + (ms < clockfmt.TENTHS_BELOW_MS && st.clock.tc !== "-" ? " low" : "");
      if (e.className !== cls) e.className = cls;
    });
  }

  function statusText(st) {
    if (st.result && st.result !== "*") return st.result;
    if (st.status === "playing") return sideName(st, st.to_move) + " to move";
    return st.status;
  }

  function moveLabel(n, text) {
    var num = Math.floor((n + 1) / 2);
    return num + (n % 2 ? ". " : "... ") + text;
  }

  function lastMoveText(st) {
    var n = count(st);                     // summary view: `n` moves, the `last` one
    if (!n) return "start";
    return moveLabel(n, st.moves ? st.moves[n - 1] : st.last);
  }

  function roundLabel(st) {
    return (st.tags && st.tags.Event ? st.tags.Event + " · " : "") + "round " + st.round;
  }

  function buildCard(k, st, big, shown) {
    var root = el("article", "card" + (big ? " wide" : ""));
    root.setAttribute("data-board", k);
    var head = el("div", "card-head");
    var title = big ? el("span", "bname", "Board " + st.board) : el("a", "bname", "Board " + st.board);
    if (!big) title.href = "/board/" + k;
    head.appendChild(title);
    var rl = el("span", "round", roundLabel(st));
    rl.title = rl.textContent;
    head.appendChild(rl);
    root.appendChild(head);
    var clocks = {};
    var flip = (st.orientation === "black") !== (big && nav.flipped);
    var top = flip ? "white" : "black";
    var bottom = top === "white" ? "black" : "white";
    root.appendChild(clockRow(st, top, clocks));
    root.appendChild(drawBoard(st.game, shown ? shown.grid : st.grid, shown ? shown.last_move : st.last_move, flip, big));
    root.appendChild(clockRow(st, bottom, clocks));
    var foot = el("div", "card-foot");
    foot.appendChild(el("span", "lastmove", lastMoveText(st)));
    foot.appendChild(el("span", "status s-" + st.status, statusText(st)));
    root.appendChild(foot);
    if (st.alert) root.appendChild(el("div", "alert", st.alert));
    return { root: root, clocks: clocks, seq: st.seq };
  }

  function buildRow(k, st) {
    // the overview: one line per board, players, clocks, result (works from 320 px to a hall screen)
    var root = el("article", "row");
    root.setAttribute("data-board", k);
    var b = el("a", "bno", st.board);
    b.href = "/board/" + k;
    b.title = "Board " + st.board + " (" + roundLabel(st) + ")";
    root.appendChild(b);
    var clocks = {};
    ["white", "black"].forEach(function (side) {
      var who = el("span", "who " + side, player(st, side));
      who.title = sideName(st, side) + ": " + player(st, side);
      var clk = el("span", "clock", "");
      clk.setAttribute("data-side", side);
      clocks[side] = clk;
      if (side === "white") { root.appendChild(who); root.appendChild(clk); }
      else { root.appendChild(el("span", "res s-" + st.status, st.result !== "*" ? st.result : lastMoveText(st))); root.appendChild(clk); root.appendChild(who); }
    });
    return { root: root, clocks: clocks, seq: st.seq };
  }

  function render(k) {
    var st = boards[k];
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    if (PAGE === "board") { renderSingle(k, st); return; }
    var container = document.getElementById("boards");
    var card = LIST ? buildRow(k, st) : buildCard(k, st, false);
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
    var navEl = document.getElementById("feeds");
    var rounds = {};
    Object.keys(boards).forEach(function (k) {
      var st = boards[k];
      var fmt = st.game === "chess" ? "pgn" : (st.game === "minzu" ? null : "pdn");
      if (fmt) rounds["/feed/" + st.tournament + "/" + st.round + "." + fmt] = st.tournament + " round " + st.round + " " + fmt.toUpperCase();
    });
    var urls = Object.keys(rounds).sort();
    if (navEl.getAttribute("data-urls") === urls.join(" ")) return;
    navEl.setAttribute("data-urls", urls.join(" "));
    navEl.textContent = "";
    urls.forEach(function (u) { var a = el("a", "feed", rounds[u]); a.href = u; navEl.appendChild(a); });
    if (PAGE !== "board") loadFinished();
  }

  // -- overview: view switch and finished games ------------------------------

  function viewLinks() {
    var keep = [];
    ["t", "r"].forEach(function (k) { if (FILTER[k]) keep.push(k + "=" + encodeURIComponent(FILTER[k])); });
    var b = document.getElementById("view-boards"), l = document.getElementById("view-list");
    if (!b) return;
    b.href = "?" + keep.join("&");
    l.href = "?" + keep.concat(["view=list"]).join("&");
    (LIST ? l : b).className = "on";
    if (LIST) document.getElementById("boards").className = "boards list";
  }

  var finishedTimer = null;
  var earlier = [];           // [board key, game line] of the boards' earlier games (from /api/round)
  function gamesChanged() {
    if (finishedTimer) return;
    finishedTimer = setTimeout(function () {
      finishedTimer = null;
      if (PAGE === "board") loadGames(); else loadFinished();
    }, 1000 + Math.random() * 4000);    // many pages must not all ask at the same moment
  }

  function loadFinished() {
    var rounds = {};
    Object.keys(boards).forEach(function (k) { var p = k.split("/"); rounds[p[0] + "/" + p[1]] = true; });
    Promise.all(Object.keys(rounds).sort(natural).map(function (r) { return getJson("/api/round/" + r); }))
      .then(function (answers) {
        earlier = [];
        answers.forEach(function (x) {
          if (x[0] !== 200) return;
          x[1].boards.forEach(function (b) { b.earlier.forEach(function (g) { earlier.push([b.k, g]); }); });
        });
        drawFinished();
      });
  }

  var drawTimer = null;
  function drawFinishedSoon() {
    if (!drawTimer) drawTimer = setTimeout(function () { drawTimer = null; drawFinished(); }, 300);
  }

  function drawFinished() {
    var list = document.getElementById("finished-list");
    if (!list) return;
    var items = earlier.slice();
    Object.keys(boards).sort(natural).forEach(function (k) {
      var st = boards[k];
      if (st.result !== "*") items.push([k, { White: name(st, "white"), Black: name(st, "black"), result: st.result, moves: count(st) }]);
    });
    items.sort(function (a, b) { return natural(a[0], b[0]) || ((a[1].index === undefined) - (b[1].index === undefined)); });
    list.textContent = "";
    items.forEach(function (it) {
      var k = it[0], g = it[1], li = el("li", "fin");
      var a = el("a", null, "Board " + k.split("/")[2] + ": " + g.White + " \u2013 " + g.Black + "  " + g.result);
      a.href = "/board/" + k + (g.index !== undefined ? "?game=" + g.index : "");
      a.title = g.moves + " moves";
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("finished").hidden = !items.length;
  }

  // -- single board page -----------------------------------------------------

  function renderSingle(k, st) {
    document.title = player(st, "white") + " - " + player(st, "black") + " · Flagfall live";
    var n = st.moves.length;
    if (nav.view !== null && nav.view >= n) nav.view = null;      // the game went back (a fix): live again
    var shown = null;
    if (nav.view !== null) {
      shown = knownPly(nav.view);
      if (!shown) loadPlies(st);
    }
    var area = document.getElementById("board-area");
    var card = buildCard(k, st, true, shown);
    area.textContent = "";
    area.appendChild(card.root);
    cards[k] = card;
    updateClocks(k);
    var info = document.getElementById("info");
    info.textContent = "";
    var pl = el("p", "players", player(st, "white") + " \u2013 " + player(st, "black"));
    pl.title = pl.textContent;
    info.appendChild(pl);
    var meta = [];
    ["Event", "Site", "Date"].forEach(function (t) { if (st.tags[t]) meta.push(st.tags[t]); });
    meta.push("round " + st.round + ", board " + st.board);
    if (st.clock.tc) meta.push("time control " + st.clock.tc);
    info.appendChild(el("p", "meta", meta.join(" · ")));
    info.appendChild(el("p", "result", "Result: " + st.result + " (" + (ARCHIVED !== null ? "earlier game" : st.status) + ")"));
    var feedsEl = document.getElementById("feeds");
    feedsEl.textContent = "";
    var fmt = st.game === "chess" ? "pgn" : (st.game === "minzu" ? "txt" : "pdn");
    if (ARCHIVED === null) {
      var a = el("a", "feed", fmt.toUpperCase() + " of this game"); a.href = "/feed/" + k + "." + fmt; feedsEl.appendChild(a);
    }
    var j = el("a", "feed", "JSON"); j.href = "/api/board/" + k + (ARCHIVED !== null ? "/games/" + ARCHIVED : "");
    feedsEl.appendChild(j);
    var ol = document.getElementById("movelist");
    var stick = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
    ol.textContent = "";
    for (var i = 0; i < n; i += 2) {
      var li = el("li", "mv");
      li.appendChild(el("span", "num", (i / 2 + 1) + "."));
      li.appendChild(moveCell(st, i));
      if (i + 1 < n) li.appendChild(moveCell(st, i + 1));
      ol.appendChild(li);
    }
    var cur = ol.querySelector(".san.cur");
    if (cur && nav.view !== null) cur.scrollIntoView({ block: "nearest" });
    else if (stick || nav.view === null) ol.scrollTop = ol.scrollHeight;
    navState(st);
  }

  function moveCell(st, i) {
    var cell = el("span", "ply " + (i % 2 ? "b" : "w"));
    var san = el("span", "san", st.moves[i]);
    var ply = i + 1;
    san.setAttribute("data-ply", String(ply));
    san.setAttribute("role", "button");
    san.tabIndex = -1;
    if ((nav.view === null ? st.moves.length : nav.view) === ply) san.className += " cur";
    cell.appendChild(san);
    cell.appendChild(el("span", "t", clockAfter(st, i)));
    return cell;
  }

  function clockAfter(st, i) {
    var c = st.clocks[i];
    if (!c) return "";
    return clockfmt.formatMs(c[i % 2], st.clock.tc === "-");
  }

  function navState(st) {
    var n = st.moves.length;
    var s = document.getElementById("nav-state");
    var live = ARCHIVED !== null ? "end of the game" : "live";
    s.textContent = nav.view === null ? live : (nav.view === 0 ? "start position" : "after " + moveLabel(nav.view, st.moves[nav.view - 1]))
      + (nav.view !== null && !knownPly(nav.view) && nav.plies ? " (position not known)" : "");
    document.getElementById("nav-live").className = nav.view === null ? "" : "away";
    document.getElementById("nav-prev").disabled = nav.view === 0 || n === 0;
    document.getElementById("nav-first").disabled = nav.view === 0 || n === 0;
    document.getElementById("nav-next").disabled = nav.view === null;
    document.getElementById("nav-live").disabled = nav.view === null;
  }

  function knownPly(v) {
    if (!nav.plies) return null;
    var st = boards[KEY];
    if (nav.pliesSeq !== st.seq && v >= nav.plies.length) return null;
    return nav.plies[v] || null;
  }

  function loadPlies(st) {
    if (nav.loading || nav.pliesSeq === st.seq || ARCHIVED !== null) return;
    nav.loading = true;
    getJson("/api/board/" + KEY + "/plies").then(function (x) {
      nav.loading = false;
      if (x[0] !== 200) return;
      nav.plies = x[1].plies;
      nav.pliesSeq = x[1].seq;
      if (boards[KEY]) renderSingle(KEY, boards[KEY]);
    }, function () { nav.loading = false; });
  }

  function setView(v) {
    var st = boards[KEY];
    if (!st) return;
    var n = st.moves.length;
    if (v !== null && v >= n) v = null;
    if (v !== null && v < 0) v = 0;
    nav.view = v;
    renderSingle(KEY, st);
  }

  function step(d) {
    var st = boards[KEY];
    if (!st) return;
    var cur = nav.view === null ? st.moves.length : nav.view;
    setView(cur + d);
  }

  function boardControls() {
    if (PAGE !== "board") return;
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("nav-first", function () { setView(0); });
    on("nav-prev", function () { step(-1); });
    on("nav-next", function () { step(1); });
    on("nav-live", function () { setView(null); });
    on("nav-flip", function () { nav.flipped = !nav.flipped; if (boards[KEY]) renderSingle(KEY, boards[KEY]); });
    document.getElementById("movelist").addEventListener("click", function (ev) {
      var t = ev.target;
      if (t && t.getAttribute && t.getAttribute("data-ply")) setView(parseInt(t.getAttribute("data-ply"), 10));
    });
    document.addEventListener("keydown", function (ev) {
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var handled = true;
      if (ev.key === "ArrowLeft") step(-1);
      else if (ev.key === "ArrowRight") step(1);
      else if (ev.key === "Home" || ev.key === "ArrowUp") setView(0);
      else if (ev.key === "End" || ev.key === "ArrowDown") setView(null);
      else if (ev.key === "f") document.getElementById("nav-flip").click();
      else handled = false;
      if (handled) ev.preventDefault();
    });
  }

  function loadGames() {
    if (PAGE !== "board") return;
    getJson("/api/board/" + KEY + "/games").then(function (x) {
      if (x[0] !== 200) return;
      var list = document.getElementById("games-list");
      list.textContent = "";
      x[1].games.forEach(function (g) {
        var li = el("li"), a = el("a", null, g.White + " \u2013 " + g.Black + "  " + g.result + " (" + g.moves + " moves)");
        a.href = "/board/" + KEY + "?game=" + g.index;
        li.appendChild(a);
        list.appendChild(li);
      });
      if (ARCHIVED !== null) {
        var li = el("li"), a = el("a", null, "the game being played now");
        a.href = "/board/" + KEY;
        li.appendChild(a);
        list.appendChild(li);
      }
      document.getElementById("games").hidden = !list.children.length;
    });
  }

  function loadArchived() {
    var conn = document.getElementById("conn");
    conn.textContent = "earlier game";
    conn.className = "conn";
    getJson("/api/board/" + KEY + "/games/" + ARCHIVED).then(function (x) {
      if (x[0] !== 200) { document.getElementById("empty").textContent = (x[1] && x[1].error) || "no such game"; return; }
      var st = x[1];
      nav.plies = st.plies;
      nav.pliesSeq = st.seq;
      delete st.plies;
      delete st.pgn;
      st.clock = Object.assign({}, st.clock, { running: null });   // a finished game's clocks stand still
      boards[KEY] = st;
      render(KEY);
    });
  }

  // -- arbiter panel: only once the token is entered (and checked) -------------

  function arbiterSetup() {
    if (PAGE !== "board" || ARCHIVED !== null) {
      var sec = document.getElementById("arbiter");
      if (sec) sec.hidden = true;
      return;
    }
    var k = KEY;
    var tok = document.getElementById("arb-token");
    var out = document.getElementById("arb-out");
    var login = document.getElementById("arb-login"), actions = document.getElementById("arb-actions");
    var open = document.getElementById("arb-open");
    var results = {};          // game -> the results it may end with (from the server's registry)
    var resultSel = document.getElementById("arb-result");
    function fillResults() {
      var st = boards[k], want = st && results[st.game] ? results[st.game] : [];
      if (resultSel.dataset.game === (st && st.game)) return;
      resultSel.dataset.game = st ? st.game : "";
      resultSel.textContent = "";
      want.forEach(function (r) { var o = el("option", null, r === "*" ? "* (take the result back)" : r); o.value = r; resultSel.appendChild(o); });
    }
    resultSel.addEventListener("focus", fillResults);
    function unlock(token, quiet) {
      getJson("/api/arbiter/check", { "Authorization": "Bearer " + token }).then(function (x) {
        if (x[0] === 200) {
          results = (x[1] && x[1].results) || {};
          fillResults();
          sessionStorage.setItem("flagfall-token", token);
          login.hidden = true;
          open.hidden = true;
          actions.hidden = false;
          out.textContent = "arbiter actions unlocked for this tab";
        } else if (!quiet) {
          out.textContent = "refused (" + x[0] + "): " + (x[1] && x[1].error);
        } else {
          sessionStorage.removeItem("flagfall-token");
        }
      });
    }
    open.addEventListener("click", function () { login.hidden = !login.hidden; if (!login.hidden) tok.focus(); });
    document.getElementById("arb-unlock").addEventListener("click", function () { unlock(tok.value.trim(), false); });
    tok.addEventListener("keydown", function (ev) { if (ev.key === "Enter") unlock(tok.value.trim(), false); });
    document.getElementById("arb-lock").addEventListener("click", function () {
      sessionStorage.removeItem("flagfall-token");
      tok.value = "";
      actions.hidden = true;
      open.hidden = false;
      out.textContent = "";
    });
    var saved = sessionStorage.getItem("flagfall-token");
    if (saved) unlock(saved, true);
    function send(body) {
      fetch("/api/board/" + k + "/arbiter", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + sessionStorage.getItem("flagfall-token") },
        body: JSON.stringify(body)
      }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
        .then(function (x) { out.textContent = x[0] === 200 ? "done: " + body.action : "refused (" + x[0] + "): " + x[1].error; })
        .catch(function (e) { out.textContent = "failed: " + e; });
    }
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("arb-result-go", function () {
      fillResults();
      var st = boards[k], r = resultSel.value;
      if (!r) { out.textContent = "no result to set yet (the board's state has not arrived)"; return; }
      var who = st ? " (" + name(st, "white") + " - " + name(st, "black") + ")" : "";
      if (confirm("Board " + (st ? st.board : k) + who + ": set the result " + r + "?")) send({ action: "result", result: r });
    });
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
  viewLinks();
  boardControls();
  arbiterSetup();
  if (PAGE === "board") loadGames();
  connect();
})();
