// Clock text exactly as the firmware's display model shows it
// (port of flagcore/display.py format_ms): countdown times round up, so 0:00
// appears only when the flag has fallen; tenths below 20 seconds.
"use strict";
(function (root) {
  var TENTHS_BELOW_MS = 20000;

  function pad2(n) { return n < 10 ? "0" + n : "" + n; }

  function formatMs(ms, countup) {
    ms = Math.floor(ms);
    if (ms < 0) ms = 0;
    if (ms < TENTHS_BELOW_MS && !countup) {
      var tenths = Math.floor((ms + 99) / 100);
      return Math.floor(tenths / 600) + ":" + pad2(Math.floor(tenths / 10) % 60) + "." + (tenths % 10);
    }
    var secs = countup ? Math.floor(ms / 1000) : Math.floor((ms + 999) / 1000);
    var h = Math.floor(secs / 3600), m = Math.floor(secs / 60) % 60, s = secs % 60;
    if (h) return h + ":" + pad2(m) + ":" + pad2(s);
    return m + ":" + pad2(s);
  }

  // Milliseconds a side's face shows at serverNow: the snapshot, run on locally
  // from clock.at_ms for the side whose clock runs, after any simple-delay
  // window (clock.delay_ms) in which its time stands still.
  function sideMs(clock, side, serverNow) {
    var ms = clock[side + "_ms"];
    if (clock.running === side && !clock.flag) {
      var dt = Math.max(0, serverNow - clock.at_ms - (clock.delay_ms || 0));
      ms = clock.tc === "-" ? ms + dt : ms - dt;
    }
    return ms;
  }

  var api = { formatMs: formatMs, sideMs: sideMs, TENTHS_BELOW_MS: TENTHS_BELOW_MS };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.clockfmt = api;
})(this);
