// The room's small controls, in place of on*= attributes (the site's Content-Security-Policy refuses those):
// a button marked data-print prints the page; a field marked data-select-on-focus selects its whole text when
// it gets the focus (the embed code, ready to copy).
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("[data-select-on-focus]").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
})();
