// Coloretto on the logging page (web/static/record.js, which loads after this): the hook
// of its widgets.  A piece tapped that is not lit is checked by the rules as the move it
// would make, so the page says why (a full row, a row taken, a row while a card waits):
// ``attempted`` writes that move from the targets tapped, null if they make none.
(function () {
  "use strict";
  var tablelog = window.tablelog = window.tablelog || {};
  tablelog.widgets = tablelog.widgets || {};

  function attempted(list, choices) {
    var rows = list.filter(function (t) { return /^row-\d$/.test(t); });
    if (rows.length === 1) {
      // a card drawn waits for a row: the row is where it would go; else the row is taken
      var placing = (choices || []).some(function (c) { return c.group === "place"; });
      return (placing ? "row " : "take ") + rows[0].slice(4);
    }
    if (list.length === 1 && list[0] === "deck") return "draw";
    return null;
  }

  tablelog.widgets.coloretto = { attempted: attempted };
})();
