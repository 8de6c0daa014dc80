// The arbiter's dashboard: every board of the round, live (never delayed), with the actions an alert needs.
"use strict";
(function () {
  var token = sessionStorage.getItem("flagfall-token") || "";
  var $ = function (id) { return document.getElementById(id); };

  function api(method, path, body) {
    var opts = { method: method, headers: { "Authorization": "Bearer " + token } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { throw new Error(j.error || r.statusText); } return j; });
    });
  }

  function clockText(ms) {
    if (ms === null || ms === undefined) { return "-"; }
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function act(board, cmd) {
    $("bar-note").textContent = "";
    return api("POST", "/api/event/board/" + board, cmd).then(refresh).catch(function (e) {
      $("bar-note").textContent = "board " + board + ": " + e.message;
    });
  }

  function actions(b) {
    var td = el("td", "actions");
    var results = b.results;          // the game's own scoring (FMJD 2-0 ...), from the registry
    if (b.actions.indexOf("result") >= 0) {
      var sel = el("select");
      sel.setAttribute("aria-label", "result of board " + b.board);
      sel.appendChild(el("option", null, "result"));
      results.forEach(function (r) { var o = el("option", null, r); o.value = r; sel.appendChild(o); });
      sel.onchange = function () { if (sel.value !== "result") { act(b.board, { action: "result", result: sel.value }); } };
      td.appendChild(sel);
    }
    if (b.actions.indexOf("fix_move") >= 0) {
      var mv = el("input");
      mv.placeholder = "move";
      mv.setAttribute("aria-label", "move on board " + b.board);
      var ok = el("button", null, "Confirm move");
      ok.onclick = function () { act(b.board, { action: "fix_move", ply: b.moves, move: mv.value.trim() }); };
      td.appendChild(mv);
      td.appendChild(ok);
    }
    if (b.actions.indexOf("penalty") >= 0 && b.alert && b.alert.indexOf("illegal move by") === 0) {
      var side = b.alert.indexOf("illegal move by " + "White") === 0 ? "white" : "black";
      var pen = el("button", null, "Apply penalty");
      pen.onclick = function () { act(b.board, { action: "penalty", side: side }); };
      td.appendChild(pen);
    }
    if (b.actions.indexOf("clock") >= 0) {
      ["white", "black"].forEach(function (side) {
        var add = el("button", null, "+1 min " + side);
        add.onclick = function () { act(b.board, { action: "clock", side: side, delta_ms: 60000 }); };
        td.appendChild(add);
      });
    }
    return td;
  }

  function draw(data) {
    $("title").textContent = "Arbiter - " + (data.event || data.tournament) + ", round " + data.round;
    $("progress").textContent = data.finished + " of " + data.total + " games finished" +
      (data.tc ? " - " + data.tc : "");
    var tbody = document.querySelector("#boards tbody");
    tbody.textContent = "";
    data.boards.forEach(function (b) {
      var tr = el("tr", b.status);
      tr.dataset.board = b.board;
      tr.appendChild(el("td", null, b.board));
      tr.appendChild(el("td", null, b.white + (b.white_rating ? " (" + b.white_rating + ")" : "")));
      tr.appendChild(el("td", null, b.black + (b.black_rating ? " (" + b.black_rating + ")" : "")));
      tr.appendChild(el("td", "status", b.status));
      tr.appendChild(el("td", null, b.moves));
      var c = b.clock || {};
      tr.appendChild(el("td", null, clockText(c.white_ms) + " / " + clockText(c.black_ms)));
      tr.appendChild(el("td", null, b.result));
      tr.appendChild(el("td", "todo", b.failure || b.fix || b.alert || ""));
      tr.appendChild(actions(b));
      tbody.appendChild(tr);
    });
  }

  function refresh() {
    return api("GET", "/api/event").then(draw);
  }

  function enter() {
    token = $("token").value.trim() || token;
    refresh().then(function () {
      sessionStorage.setItem("flagfall-token", token);
      $("login").hidden = true;
      $("desk").hidden = false;
      setInterval(function () { refresh().catch(function () {}); }, 1000);
    }).catch(function (e) { $("login-error").textContent = e.message; });
  }

  $("enter").onclick = enter;
  $("token").onkeydown = function (e) { if (e.key === "Enter") { enter(); } };
  $("start").onclick = function () {
    api("POST", "/api/event/start").then(function (j) { $("bar-note").textContent = j.started + " clocks started"; });
  };
  $("files").onclick = function () {
    api("POST", "/api/event/round-files").then(function (j) { $("bar-note").textContent = "written: " + j.written.join(", "); });
  };
  $("next").onclick = function () {
    api("POST", "/api/event/round").then(function (j) {
      $("bar-note").textContent = "round " + j.round + " loaded: " + j.boards + " boards";
    }).catch(function (e) { $("bar-note").textContent = e.message; });
  };
  if (token) { enter(); }
}());
