// The index's table: a click on a column's heading sorts the rows by it (again: the
// other way), numbers as numbers, empty cells last either way, ties in the classes'
// order; the text box and the status choice hide the rows that do not match.
"use strict";
(function () {
  var table = document.getElementById("classes");
  if (!table) {
    return;
  }
  var body = table.tBodies[0];
  var headings = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var rows = Array.prototype.slice.call(body.rows);
  rows.forEach(function (row, i) {
    row.dataset.order = String(i);
  });
  var filter = document.getElementById("filter");
  var status = document.getElementById("status");
  var shown = document.getElementById("shown");

  function key(row, column, numeric) {
    var cell = row.cells[column];
    var text = cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent;
    if (!numeric) {
      return text;
    }
    return text === "" ? null : Number(text);
  }

  function sortBy(column) {
    var heading = headings[column];
    var numeric = heading.dataset.kind === "number";
    var way = heading.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    var sorted = rows.slice().sort(function (a, b) {
      var x = key(a, column, numeric);
      var y = key(b, column, numeric);
      if (x === null || y === null) {
        if (x !== y) {
          return x === null ? 1 : -1;
        }
      } else if (x !== y) {
        return x < y ? -way : way;
      }
      return Number(a.dataset.order) - Number(b.dataset.order);
    });
    headings.forEach(function (h) {
      h.removeAttribute("aria-sort");
    });
    heading.setAttribute("aria-sort", way === 1 ? "ascending" : "descending");
    sorted.forEach(function (row) {
      body.appendChild(row);
    });
  }

  function applyFilter() {
    var text = filter.value.trim().toLowerCase();
    var wanted = status.value;
    var count = 0;
    rows.forEach(function (row) {
      var match = row.dataset.search.indexOf(text) !== -1;
      match = match && (wanted === "" || row.dataset.status === wanted);
      row.hidden = !match;
      count += match ? 1 : 0;
    });
    shown.textContent = count + " of " + rows.length + " classes";
  }

  headings.forEach(function (heading, column) {
    heading.querySelector("button").addEventListener("click", function () {
      sortBy(column);
    });
  });
  filter.addEventListener("input", applyFilter);
  status.addEventListener("change", applyFilter);
  applyFilter();
})();
