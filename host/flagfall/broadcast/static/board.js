// Flagfall live page, one board (board.html, /board/<t>/<r>/<b>): the board with its clocks, the move
// list, stepping through the moves with the clocks and the footer following, flip, the position as text,
// earlier games on the board (?game=N shows one), share and embed, and the arbiter's panel once its token
// is entered. ?embed=1 gives it without the page's chrome, for an iframe. The state arrives over
// Server-Sent Events (/api/stream, the full view's `u` frames: docs/broadcast.md); clocks run on locally
// from each snapshot. The words of a state are clockfmt.js's (clockfmt, boardstate), the card
// pieces.js's. Alerts are never shown to the public: the alert's text is fetched with the arbiter's
// token only.
"use strict";
(function () {
  var B = window.boardstate, P = window.pieces;
  var el = P.el, link = P.link, getJson = B.getJson, roundQuery = B.roundQuery;
  var QUERY = new URLSearchParams(location.search);
  var EMBED = P.EMBED;
  var ARCHIVED = /^\d+$/.test(QUERY.get("game") || "") ? QUERY.get("game") : null;
  var boards = {};          // "t/r/b" -> state view (no record text): this board's only
  var cards = {};           // "t/r/b" -> DOM elements of that board
  var offset = 0;           // server clock minus local clock, ms
  var received = 0, streamBytes = 0;
  // which ply is shown (null: live), flipped or not, the positions per ply
  var nav = { view: null, flipped: false, plies: null, pliesSeq: -1, loading: false };
  var es = null;            // the event stream

  // what tests and curious people can read: window.flagfall
  window.flagfall = { boards: boards, received: function () { return received; }, lastAt: 0,
                      streamBytes: function () { return streamBytes; },
                      nav: function () { return { view: nav.view, flipped: nav.flipped }; } };

  if (EMBED) document.body.classList.add("embed");

  var PATH = location.pathname.split("/").filter(Boolean); // board, t, r, b
  var FILTER = { t: decodeURIComponent(PATH[1] || ""), r: decodeURIComponent(PATH[2] || ""), b: decodeURIComponent(PATH[3] || "") };
  var KEY = FILTER.t + "/" + FILTER.r + "/" + FILTER.b;

  function streamUrl() {
    var q = [];
    ["t", "r", "b"].forEach(function (k) { if (FILTER[k]) q.push(k + "=" + encodeURIComponent(FILTER[k])); });
    return "/api/stream" + (q.length ? "?" + q.join("&") : "");    // the full view: the page needs the move list
  }

  function serverNow() { return Date.now() + offset; }

  // -- applying stream messages -------------------------------------------

  function apply(msg) {
    var k = msg.k;
    var cur = boards[k];
    var before = cur ? { n: B.count(cur), result: cur.result } : null;
    var st = B.applyUpdate(boards, msg);
    if (!st) { refetch(k); return; }
    received++;
    window.flagfall.lastAt = Date.now();
    // a board that starts its next game has one more earlier game to list (rare: fetched, jittered)
    if (before && (B.count(st) < before.n || (before.result !== "*" && st.result === "*"))) gamesChanged();
    render(k);
  }

  function refetch(k) {
    B.fetchBoard(k, false).then(function (st) {
      if (st && (!boards[k] || boards[k].seq < st.seq)) { boards[k] = st; render(k); }
    });
  }

  function connect() {
    if (ARCHIVED !== null) { loadArchived(); return; }
    if (es) es.close();
    es = B.follow(streamUrl(), document.getElementById("conn"), function (off) { offset = off; },
                  // one `u` frame per tick carries every board that changed since the last one
                  function (data) { streamBytes += data.length; JSON.parse(data).forEach(apply); });
  }

  var gamesTimer = null;
  function gamesChanged() {
    if (gamesTimer) return;
    gamesTimer = setTimeout(function () {
      gamesTimer = null;
      loadGames();
    }, 1000 + Math.random() * 4000);    // many pages must not all ask at the same moment
  }

  function updateClocks(k) {
    if (boards[k] && cards[k]) P.tick(cards[k], boards[k], serverNow(), nav.view);
  }

  function render(k) {
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    renderSingle(k, boards[k]);
  }

  // -- the page -----------------------------------------------------------------

  function renderSingle(k, st) {
    document.title = B.player(st, "white") + " - " + B.player(st, "black") + " \u00b7 Flagfall live";
    var n = st.moves.length;
    if (nav.view !== null && nav.view >= n) nav.view = null;      // the game went back (a fix): live again
    var shown = null;
    if (nav.view !== null) {
      shown = knownPly(nav.view);
      if (!shown) loadPlies(st);
    }
    var area = document.getElementById("board-area");
    var card = P.card(k, st, { big: true, flipped: nav.flipped, shown: shown, view: nav.view });
    area.textContent = "";
    area.appendChild(card.root);
    cards[k] = card;
    updateClocks(k);
    var info = document.getElementById("info");
    info.textContent = "";
    var pl = el("p", "players");
    pl.appendChild(P.playerLabel(st, "white", "who"));
    pl.appendChild(document.createTextNode(" \u2013 "));
    pl.appendChild(P.playerLabel(st, "black", "who"));
    info.appendChild(pl);
    if (st.tags.WhiteTeam && st.tags.BlackTeam) {
      // a team event: the board of a match, both teams named (White's team first)
      info.appendChild(el("p", "teams", st.tags.WhiteTeam + " \u2013 " + st.tags.BlackTeam));
    }
    var meta = [];
    ["Event", "Site", "Date"].forEach(function (t) { if (st.tags[t]) meta.push(st.tags[t]); });
    meta.push("round " + st.round + ", board " + st.board);
    if (st.clock.tc) meta.push("time control " + st.clock.tc);
    var metaEl = el("p", "meta", meta.join(" \u00b7 ") + " \u00b7 ");
    metaEl.appendChild(link("round-link", "all boards of round " + st.round,
                            "/" + roundQuery(st.tournament, st.round)));
    info.appendChild(metaEl);
    info.appendChild(el("p", "result", "Result: " + (st.result !== "*" ? B.resultText(st) : "* (" + (ARCHIVED !== null ? "earlier game" : B.statusText(st)) + ")")));
    positionBox(st, shown);
    shareBox(k);
    var feedsEl = document.getElementById("feeds");
    feedsEl.textContent = "";
    var fmt = P.family(st.game) === "chess" ? "pgn" : (st.game === "minzu" ? "txt" : "pdn");
    if (ARCHIVED === null) feedsEl.appendChild(link("feed", fmt.toUpperCase() + " of this game", "/feed/" + k + "." + fmt));
    feedsEl.appendChild(link("feed", "JSON", "/api/board/" + k + (ARCHIVED !== null ? "/games/" + ARCHIVED : "")));
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
    if (arbiterUnlocked) arbiterAlert();
  }

  // the position as text: FEN (live) and the pieces by square, for screen readers and for copying
  function positionBox(st, shown) {
    var box = document.getElementById("position");
    if (!box) return;
    var fen = document.getElementById("position-fen"), list = document.getElementById("position-pieces");
    var live = nav.view === null;
    fen.textContent = live && st.position ? st.position : "";
    fen.hidden = !fen.textContent;
    list.textContent = P.positionText(st.game, shown ? shown.grid : st.grid);
  }

  function shareBox(k) {
    var input = document.getElementById("share-url"), code = document.getElementById("embed-code");
    if (!input) return;
    var url = location.origin + "/board/" + k + (ARCHIVED !== null ? "?game=" + ARCHIVED : "");
    if (input.value !== url) input.value = url;
    var src = location.origin + "/board/" + k + "?embed=1" + (ARCHIVED !== null ? "&game=" + ARCHIVED : "");
    var snippet = '<iframe src="' + src + '" width="420" height="620" title="Flagfall live board" loading="lazy"></iframe>';
    if (code.value !== snippet) code.value = snippet;
  }

  function moveCell(st, i) {
    var cell = el("span", "ply " + (i % 2 ? "b" : "w"));
    var san = el("span", "san", st.moves[i]);
    var ply = i + 1;
    san.setAttribute("data-ply", String(ply));
    san.setAttribute("role", "button");
    san.tabIndex = -1;
    if ((nav.view === null ? st.moves.length : nav.view) === ply) {
      san.className += " cur";
      san.setAttribute("aria-current", "step");
    }
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
    s.textContent = nav.view === null ? live : (nav.view === 0 ? "start position" : "after " + B.moveLabel(nav.view, st.moves[nav.view - 1]))
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
    function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
    on("nav-first", function () { setView(0); });
    on("nav-prev", function () { step(-1); });
    on("nav-next", function () { step(1); });
    on("nav-live", function () { setView(null); });
    on("nav-flip", function () { nav.flipped = !nav.flipped; if (boards[KEY]) renderSingle(KEY, boards[KEY]); });
    on("share-copy", function () {
      var input = document.getElementById("share-url"), out = document.getElementById("share-out");
      var done = function () { out.textContent = "link copied"; };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
      else { input.select(); out.textContent = "link selected: copy it with Ctrl+C"; }
    });
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
    getJson("/api/board/" + KEY + "/games").then(function (x) {
      if (x[0] !== 200) return;
      var list = document.getElementById("games-list");
      list.textContent = "";
      x[1].games.forEach(function (g) {
        var li = el("li");
        li.appendChild(link(null, g.White + " \u2013 " + g.Black + "  " + g.result + " (" + g.moves + " moves)",
                            "/board/" + KEY + "?game=" + g.index + (EMBED ? "&embed=1" : "")));
        list.appendChild(li);
      });
      if (ARCHIVED !== null) {
        var li = el("li");
        li.appendChild(link(null, "the game being played now", "/board/" + KEY + (EMBED ? "?embed=1" : "")));
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

  // -- arbiter panel: only once the token is entered (and checked); never in an embedded view ----

  var arbiterUnlocked = false;
  var arbiterPenalty = null;     // the penalty the illegal-move alert up proposes: {side, text}, or null
  var arbiterActions = null;     // the actions the board allows now, where it says (an event's board), else null
  var arbiterOffer = function () {};   // shows the panel's actions the board allows (arbiterSetup)
  function arbiterAlert() {      // the alert's full text: the arbiter's only
    var out = document.getElementById("arb-alert");
    getJson("/api/board/" + KEY + "/alert", { "Authorization": "Bearer " + sessionStorage.getItem("flagfall-token") })
      .then(function (x) {
        out.textContent = x[0] === 200 && x[1].alert ? "Alert: " + x[1].alert : "";
        // "Apply penalty" only while an illegal-move alert is up, naming the side and what it costs
        arbiterPenalty = x[0] === 200 && x[1].penalty ? x[1].penalty : null;
        document.getElementById("arb-penalty-row").hidden = !arbiterPenalty;
        document.getElementById("arb-penalty-go").textContent =
          arbiterPenalty ? "Apply penalty: " + arbiterPenalty.text : "Apply penalty";
        arbiterActions = x[0] === 200 && x[1].actions ? x[1].actions : null;
        arbiterOffer();
      });
  }

  function arbiterSetup() {
    if (ARCHIVED !== null || EMBED) {
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
    // what the board allows now (an event's board says: the dashboard's rule), else every action
    function allows(a) { return arbiterActions === null || arbiterActions.indexOf(a) >= 0; }
    function fillResults() {
      var st = boards[k], want = st && results[st.game] ? results[st.game] : [];
      if (arbiterActions !== null) {
        want = want.filter(function (r) { return r === "*" ? allows("undo_result") : allows("result"); })
          .concat(allows("forfeit") ? B.FORFEITS : []);
      }
      var sig = (st ? st.game : "") + " " + want.join(" ");
      if (resultSel.dataset.sig === sig) return;
      resultSel.dataset.sig = sig;
      resultSel.textContent = "";
      want.forEach(function (r) {
        var o = el("option", null, r === "*" ? "* (take the result back)" : B.isForfeit(r) ? B.forfeitText(r) : r);
        o.value = r;
        resultSel.appendChild(o);
      });
    }
    function rowOf(id) { return document.getElementById(id).parentNode; }
    arbiterOffer = function () {
      fillResults();
      rowOf("arb-result-go").hidden = !resultSel.options.length;
      rowOf("arb-clock-go").hidden = !allows("clock");
      rowOf("arb-fix-go").hidden = !allows("fix_move");
      rowOf("arb-promo-go").hidden = !allows("promotion");
      document.getElementById("arb-restart-go").hidden = !allows("restart");
    };
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
          arbiterUnlocked = true;
          out.textContent = "arbiter actions unlocked for this tab";
          arbiterAlert();
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
      arbiterUnlocked = false;
      out.textContent = "";
      document.getElementById("arb-alert").textContent = "";
      document.getElementById("arb-penalty-row").hidden = true;
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
      var who = st ? " (" + B.name(st, "white") + " - " + B.name(st, "black") + ")" : "";
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
    on("arb-penalty-go", function () {
      var p = arbiterPenalty, st = boards[k];
      if (!p) { out.textContent = "no illegal-move alert is up"; return; }
      var who = st ? " (" + B.name(st, "white") + " - " + B.name(st, "black") + ")" : "";
      if (confirm("Board " + (st ? st.board : k) + who + ": apply the penalty for the illegal move?\n" + p.text)) {
        send({ action: "penalty", side: p.side });
      }
    });
    on("arb-restart-go", function () { if (confirm("Restart this board from the start position?")) send({ action: "restart" }); });
  }


  setInterval(function () { Object.keys(cards).forEach(updateClocks); }, 100);
  // a page left must let its stream go at once: a browser holds few connections per server, and
  // a stream still open from each page seen would leave none for the next page's requests
  window.addEventListener("pagehide", function () { if (es) { es.close(); es = null; } });
  boardControls();
  arbiterSetup();
  loadGames();
  connect();
})();
