// Flagfall live page, the overview of a tournament (index.html): one round at a time, the current one
// first, a round selector for the earlier ones, the round's boards as cards or as a list, finished games,
// a team event's matches and the standings after it. ?embed=1 gives it without the page's chrome, for an
// iframe. States arrive over Server-Sent Events (/api/stream?view=summary, `u` frames: docs/broadcast.md);
// clocks run on locally from each snapshot. The words of a state are clockfmt.js's (clockfmt,
// boardstate), the cards pieces.js's. Alerts are never shown to the public: the server sends "arbiter at
// the board" only, and this page prints no alert text.
"use strict";
(function () {
  var B = window.boardstate, P = window.pieces;
  var el = P.el, link = P.link, flag = P.flag, getJson = B.getJson, natural = B.natural, roundQuery = B.roundQuery;
  var QUERY = new URLSearchParams(location.search);
  var EMBED = P.EMBED;
  var LIST = QUERY.get("view") === "list";
  var boards = {};          // "t/r/b" -> state view (the summary view: no moves, clocks or record text)
  var cards = {};           // "t/r/b" -> DOM elements of that board
  var offset = 0;           // server clock minus local clock, ms
  var received = 0, streamBytes = 0;
  var es = null;            // the event stream

  // what tests and curious people can read: window.flagfall
  window.flagfall = { boards: boards, received: function () { return received; }, lastAt: 0,
                      streamBytes: function () { return streamBytes; } };

  if (EMBED) document.body.classList.add("embed");

  var FILTER = { t: QUERY.get("t"), r: QUERY.get("r"), b: null };
  var CHOSEN = !!(FILTER.t && FILTER.r);     // the overview shows the round asked for, else the current one

  function streamUrl() {
    var q = [];
    ["t", "r"].forEach(function (k) { if (FILTER[k]) q.push(k + "=" + encodeURIComponent(FILTER[k])); });
    q.push("view=summary");            // an overview needs positions and clocks only, not the move lists
    return "/api/stream?" + q.join("&");
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
    // a board that starts its next game has one more earlier game to list (rare: fetched, jittered);
    // a result is known here already (drawn from the stream)
    if (before && (B.count(st) < before.n || (before.result !== "*" && st.result === "*"))) gamesChanged();
    else if (before ? before.result !== st.result : st.result !== "*") resultsChanged();
    render(k);
  }

  function refetch(k) {
    B.fetchBoard(k, true).then(function (st) {
      if (st && (!boards[k] || boards[k].seq < st.seq)) { boards[k] = st; render(k); }
    });
  }

  function connect() {
    if (es) es.close();
    es = B.follow(streamUrl(), document.getElementById("conn"), function (off) { offset = off; },
                  // one `u` frame per tick carries every board that changed since the last one
                  function (data) { streamBytes += data.length; JSON.parse(data).forEach(apply); });
  }

  function updateClocks(k) {
    if (boards[k] && cards[k]) P.tick(cards[k], boards[k], serverNow(), null);
  }

  // -- the boards: cards, or one line each -------------------------------------------

  function buildRow(k, st) {
    // the overview: one line per board, players, clocks, result (works from 320 px to a hall screen)
    var root = el("article", "row");
    root.setAttribute("data-board", k);
    var b = link("bno", st.board, "/board/" + k);
    b.title = "Board " + st.board + " (" + B.roundLabel(st) + ")";
    b.setAttribute("aria-label", "Board " + st.board);
    root.appendChild(b);
    var clocks = {};
    ["white", "black"].forEach(function (side) {
      var who = P.playerLabel(st, side, "who " + side);
      var clk = el("span", "clock", "");
      clk.setAttribute("data-side", side);
      clocks[side] = clk;
      if (side === "white") { root.appendChild(who); root.appendChild(clk); }
      else {
        var res = el("span", "res s-" + st.status, st.result !== "*" ? st.result : (st.status === "alert" ? B.PUBLIC_ALERT : B.lastMoveText(st, null)));
        res.title = B.statusText(st);
        root.appendChild(res); root.appendChild(clk); root.appendChild(who);
      }
    });
    return { root: root, clocks: clocks, seq: st.seq };
  }

  function render(k) {
    var st = boards[k];
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    var container = document.getElementById("boards");
    var card = LIST ? buildRow(k, st) : P.card(k, st, { big: false });
    var old = cards[k];
    if (old) container.replaceChild(card.root, old.root);
    else insertSorted(container, k, card.root);
    cards[k] = card;
    updateClocks(k);
    feedLinks();
    if (!FILTER.r) roundTitle(st.tournament, st.round);
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
      var fmt = st.game === "chess" || st.game === "chess960" ? "pgn" : (st.game === "minzu" ? null : "pdn");
      if (fmt) rounds["/feed/" + st.tournament + "/" + st.round + "." + fmt] = "round " + st.round + " " + fmt.toUpperCase();
    });
    var urls = Object.keys(rounds).sort();
    if (navEl.getAttribute("data-urls") === urls.join(" ")) return;
    navEl.setAttribute("data-urls", urls.join(" "));
    navEl.textContent = "";
    urls.forEach(function (u) { navEl.appendChild(link("feed", rounds[u], u)); });
  }

  // -- overview: rounds, view switch, finished games, standings -------------------

  function roundQuery(t, r, extra) {
    var q = [];
    if (t) q.push("t=" + encodeURIComponent(t));
    if (r) q.push("r=" + encodeURIComponent(r));
    return "?" + q.concat(extra || []).join("&");
  }

  function viewLinks() {
    var b = document.getElementById("view-boards"), l = document.getElementById("view-list");
    if (!b) return;
    var r = CHOSEN ? FILTER.r : null;      // on the current round the other view follows the current round too
    b.href = roundQuery(FILTER.t, r, EMBED ? ["embed=1"] : []);
    l.href = roundQuery(FILTER.t, r, ["view=list"].concat(EMBED ? ["embed=1"] : []));
    b.className = LIST ? "" : "on";
    l.className = LIST ? "on" : "";
    if (LIST) document.getElementById("boards").className = "boards list";
  }

  function roundTitle(t, r) {
    var h = document.getElementById("round-title");
    if (h && r) h.textContent = "Round " + r + (t ? " \u00b7 " + t : "");
  }

  var rounds = [];          // [{t, r, boards, finished, playing}] of the tournament shown, in order
  function loadRounds(first) {
    var url = "/api/rounds" + (FILTER.t ? "?t=" + encodeURIComponent(FILTER.t) : "");
    return getJson(url).then(function (x) {
      if (x[0] !== 200) return;
      var all = x[1].rounds;
      if (!all.length) return;
      var t = FILTER.t || currentOf(all).t;
      rounds = all.filter(function (d) { return d.t === t; });
      var cur = currentOf(rounds);
      if (!CHOSEN && (FILTER.t !== cur.t || FILTER.r !== cur.r)) {
        showRound(cur.t, cur.r, first);       // the current round first; a new round when it begins
      }
      drawRoundNav();
    });
  }

  // the round shown when none is asked for: the newest one with games being played, else the newest
  function currentOf(list) {
    for (var i = list.length - 1; i >= 0; i--) if (list[i].status ? list[i].status === "live" : list[i].playing) return list[i];
    return list[list.length - 1];
  }

  function drawRoundNav() {
    var navEl = document.getElementById("rounds");
    if (!navEl) return;
    navEl.textContent = "";
    var cur = rounds.length ? currentOf(rounds) : null;
    rounds.forEach(function (d) {
      var live = d.status ? d.status === "live" : d.playing > 0;     // only the latest round can be live
      var a = el("a", d.r === FILTER.r ? "on" : "", "Round " + d.r + (live ? " \u00b7 live" : d.status === "adjourned" ? " \u00b7 adjourned" : ""));
      a.href = roundQuery(d.t, d === cur ? null : d.r, (LIST ? ["view=list"] : []).concat(EMBED ? ["embed=1"] : []));
      if (d.r === FILTER.r) a.setAttribute("aria-current", "page");
      a.title = d.boards + " boards, " + d.finished + " finished" + (d.adjourned ? ", " + d.adjourned + " adjourned" : "")
        + (live ? "" : " (archived)");
      a.setAttribute("data-round", d.r);
      navEl.appendChild(a);
    });
    navEl.hidden = rounds.length < 2;
  }

  // show another round in place (no reload): the stream, the boards, the finished games, the standings
  function showRound(t, r, first) {
    FILTER.t = t;
    FILTER.r = r;
    Object.keys(cards).forEach(function (k) { cards[k].root.remove(); delete cards[k]; });
    Object.keys(boards).forEach(function (k) { delete boards[k]; });
    earlier = [];
    roundTitle(t, r);
    viewLinks();
    connect();
    loadRoundExtras();
    if (!first) drawRoundNav();
  }

  var finishedTimer = null;
  var earlier = [];           // [board key, game line] of the boards' earlier games (from /api/round)
  function gamesChanged() {
    if (finishedTimer) return;
    finishedTimer = setTimeout(function () {
      finishedTimer = null;
      loadRoundExtras();
    }, 1000 + Math.random() * 4000);    // many pages must not all ask at the same moment
  }

  // once per round shown (and when a board starts its next game): earlier games and standings
  function loadRoundExtras() {
    if (!FILTER.t || !FILTER.r) return;
    var t = FILTER.t, r = FILTER.r;
    getJson("/api/round/" + encodeURIComponent(t) + "/" + encodeURIComponent(r)).then(function (x) {
      if (x[0] !== 200 || FILTER.r !== r) return;
      earlier = [];
      x[1].boards.forEach(function (b) { b.earlier.forEach(function (g) { earlier.push([b.k, g]); }); });
      drawFinished();
    });
    loadStandings();
  }

  var standingsTimer = null;
  function resultsChanged() {
    drawFinishedSoon();
    if (!standingsTimer) standingsTimer = setTimeout(function () { standingsTimer = null; loadStandings(); },
                                                     1500 + Math.random() * 3000);
  }

  function loadStandings() {
    var sec = document.getElementById("standings");
    if (!sec || !/^\d+$/.test(FILTER.r || "")) return;
    var t = FILTER.t, r = FILTER.r;
    getJson("/api/standings/" + encodeURIComponent(t) + "/" + r).then(function (x) {
      if (x[0] !== 200 || FILTER.r !== r) return;
      drawMatches(x[1].teams, r);
      if (!x[1].complete && r !== "1") {
        // the round is being played: the table after the previous one, with this round's results so far below it
        return getJson("/api/standings/" + encodeURIComponent(t) + "/" + (parseInt(r, 10) - 1)).then(function (y) {
          if (y[0] === 200 && FILTER.r === r) drawStandings(y[1], "after round " + (parseInt(r, 10) - 1));
        });
      }
      var any = x[1].tables.some(function (tb) { return tb.rows.some(function (row) { return row.played || row.points; }); });
      if (x[1].complete || any) drawStandings(x[1], x[1].complete ? "after round " + r : "during round " + r + " (finished games only)");
    });
  }

  // a team event's round: each match with its score (from its games, live) and its boards under it
  function drawMatches(teams, r) {
    var sec = document.getElementById("matches");
    if (!sec) return;
    sec.textContent = "";
    sec.hidden = !teams || !teams.matches.length;
    if (sec.hidden) return;
    sec.appendChild(el("h2", null, "Matches of round " + r));
    teams.matches.forEach(function (m) {
      var box = el("div", "match" + (m.finished ? " done" : ""));
      var head = el("p", "match-head");
      head.appendChild(el("span", "team home", m.home));
      var score = m.forfeit === "bye" ? "bye" : B.points(m.home_gp) + " \u2013 " + B.points(m.away_gp);
      head.appendChild(el("span", "match-score", score));
      head.appendChild(el("span", "team away", m.forfeit === "bye" ? "" : m.away));
      if (m.forfeit && m.forfeit !== "bye") head.appendChild(el("span", "hint", " forfeited"));
      box.appendChild(head);
      var ol = el("ol", "match-boards");
      m.boards.forEach(function (b) {
        var li = el("li", "match-board");
        var text = b.number + ". " + (b.white || "\u2014") + " \u2013 " + (b.black || "\u2014") + " " + (b.result || "*");
        if (b.board !== null) li.appendChild(link(null, text, "/board/" + FILTER.t + "/" + r + "/" + b.board + (EMBED ? "?embed=1" : "")));
        else li.appendChild(el("span", "forfeit", text + " (not fielded)"));
        ol.appendChild(li);
      });
      box.appendChild(ol);
      sec.appendChild(box);
    });
  }

  function drawStandings(data, when) {
    var sec = document.getElementById("standings");
    sec.textContent = "";
    var h = el("h2", null, "Standings " + when);
    sec.appendChild(h);
    if (data.teams) sec.appendChild(teamTable(data.teams));
    data.tables.forEach(function (tb) {
      var table = el("table", "standings");
      table.setAttribute("data-game", tb.game);
      if (data.tables.length > 1) table.appendChild(el("caption", null, tb.game));
      var head = el("tr");
      [["#", "rank"], ["Player", null], ["Rtg", "rating"], ["Pts", "points"], ["BH", "Buchholz"], ["SB", "Sonneborn-Berger"], ["W", "wins"]]
        .forEach(function (c) { var th = el("th", null, c[0]); th.scope = "col"; if (c[1]) th.title = c[1]; head.appendChild(th); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody");
      tb.rows.forEach(function (row) {
        var tr = el("tr");
        tr.appendChild(el("td", "n", String(row.rank)));
        var who = el("td", "who");
        var fl = flag(row.federation);
        if (fl) who.appendChild(fl);
        if (row.title) who.appendChild(el("abbr", "title", row.title));
        who.appendChild(el("span", "pname", row.name));
        tr.appendChild(who);
        tr.appendChild(el("td", "n", row.rating ? String(row.rating) : ""));
        tr.appendChild(el("td", "n pts", B.points(row.points)));
        tr.appendChild(el("td", "n", String(Math.round(row.buchholz * 100) / 100)));
        tr.appendChild(el("td", "n", String(Math.round(row.sb * 100) / 100)));
        tr.appendChild(el("td", "n", String(row.wins)));
        body.appendChild(tr);
      });
      table.appendChild(body);
      sec.appendChild(table);
    });
    sec.hidden = false;
  }

  // a team event's standings: match points, game points, the tiebreaks, board points per board
  function teamTable(teams) {
    var table = el("table", "standings teams");
    table.appendChild(el("caption", null, "Teams"));
    var nboards = 0;
    teams.rows.forEach(function (row) { nboards = Math.max(nboards, row.boards.length); });
    var head = el("tr"), cols = [["#", "rank"], ["Team", null], ["MP", "match points"], ["GP", "game points"]];
    // the event's tie-breaks (FIDE codes, the API's words as their titles); MP and GP have their columns
    var shown = teams.tiebreaks.filter(function (c) { return c !== "MPTS" && c !== "GPTS"; });
    shown.forEach(function (c) { cols.push([c, (teams.tiebreak_names || {})[c] || c]); });
    for (var i = 1; i <= nboards; i++) cols.push(["B" + i, "board points on board " + i]);
    cols.forEach(function (c) { var th = el("th", null, c[0]); th.scope = "col"; if (c[1]) th.title = c[1]; head.appendChild(th); });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    teams.rows.forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("td", "n", String(row.rank)));
      tr.appendChild(el("td", "who", row.name));
      tr.appendChild(el("td", "n pts", String(row.mp)));
      tr.appendChild(el("td", "n", B.points(row.gp)));
      shown.forEach(function (c) {
        var v = row.tiebreaks[c];      // TBR and BBE: a list, board by board
        tr.appendChild(el("td", "n", [].concat(v).map(function (x) { return String(Math.round(x * 100) / 100); }).join(" ")));
      });
      for (var i = 0; i < nboards; i++) tr.appendChild(el("td", "n", i < row.boards.length ? B.points(row.boards[i]) : ""));
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
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
      if (st.result !== "*") items.push([k, { White: B.name(st, "white"), Black: B.name(st, "black"), result: B.resultText(st), moves: B.count(st) }]);
    });
    items.sort(function (a, b) { return natural(a[0], b[0]) || ((a[1].index === undefined) - (b[1].index === undefined)); });
    list.textContent = "";
    items.forEach(function (it) {
      var k = it[0], g = it[1], li = el("li", "fin"), p = k.split("/");
      var a = link(null, "Round " + p[1] + ", board " + p[2] + ": " + g.White + " \u2013 " + g.Black + " " + g.result,
                   "/board/" + k + (g.index !== undefined ? "?game=" + g.index : ""));
      a.title = g.moves + " moves";
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("finished").hidden = !items.length;
  }


  setInterval(function () { Object.keys(cards).forEach(updateClocks); }, 100);
  // a page left must let its stream go at once: a browser holds few connections per server, and
  // a stream still open from each page seen would leave none for the next page's requests
  window.addEventListener("pagehide", function () { if (es) { es.close(); es = null; } });
  viewLinks();
  if (CHOSEN) {                 // a round asked for: stream it at once, list the rounds beside
    roundTitle(FILTER.t, FILTER.r);
    connect();
    loadRoundExtras();
    loadRounds(true);
  } else {
    loadRounds(true).then(function () { if (!es) connect(); });   // no boards yet: follow whatever comes
  }
  // a new round begins: the rounds list (and, unless one was asked for, the page) follows
  setInterval(function () { loadRounds(false); }, 20000 + Math.random() * 10000);
})();
