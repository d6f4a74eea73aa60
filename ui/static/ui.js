// The UI's one script (no inline script anywhere: the CSP forbids it). Copy buttons, and
// confirmation for destructive forms (data-confirm). Every page works without it.
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) return;
    navigator.clipboard.writeText(target.textContent).then(function () {
      var label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1200);
    });
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var typed = form.getAttribute("data-confirm-typed");
    if (typed) {
      var input = form.querySelector("[name=confirm]");
      if (input && input.value !== typed) {
        event.preventDefault();
        input.setCustomValidity("Type " + typed + " to confirm");
        input.reportValidity();
      }
    }
  }, true);
})();
