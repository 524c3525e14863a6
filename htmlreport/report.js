//<![CDATA[
// The report's only script: clicking a step of a timeline shows that step's detail (its
// events, what changed, the whole world after it), which the page holds hidden; ← and → move
// through the steps of the focused timeline. When it has wired every timeline it writes
// data-status="ok" and the counts it found on the root element, which the browser test reads
// from the dumped DOM; an error anywhere writes data-status="error: ...".
(function () {
  "use strict";
  var root = document.documentElement;
  window.addEventListener("error", function (e) {
    root.setAttribute("data-status", "error: " + e.message);
  });

  function show(tl, n) {
    var details = tl.querySelectorAll(".stepdetail");
    var shown = false;
    for (var i = 0; i < details.length; i++) {
      if (details[i].getAttribute("data-step") === String(n)) {
        details[i].removeAttribute("hidden");
        shown = true;
      } else {
        details[i].setAttribute("hidden", "hidden");
      }
    }
    if (!shown) {
      return;
    }
    var cols = tl.querySelectorAll("rect.col");
    for (var j = 0; j < cols.length; j++) {
      cols[j].classList.toggle("sel", cols[j].getAttribute("data-step") === String(n));
    }
    tl.setAttribute("data-selected", String(n));
    var hint = tl.querySelector(".hint");
    if (hint) {
      hint.setAttribute("hidden", "hidden");
    }
  }

  function wire(tl) {
    var steps = tl.querySelectorAll(".stepdetail").length - 1;
    tl.addEventListener("click", function (ev) {
      var t = ev.target.closest ? ev.target.closest("[data-step]") : null;
      if (t && tl.contains(t) && !t.classList.contains("stepdetail")) {
        show(tl, Number(t.getAttribute("data-step")));
      }
    });
    tl.addEventListener("keydown", function (ev) {
      var cur = Number(tl.getAttribute("data-selected") || "0");
      if (ev.key === "ArrowRight" && cur < steps) {
        show(tl, cur + 1);
        ev.preventDefault();
      } else if (ev.key === "ArrowLeft" && cur > 0) {
        show(tl, cur - 1);
        ev.preventDefault();
      }
    });
  }

  var tls = document.querySelectorAll("section.timeline");
  for (var i = 0; i < tls.length; i++) {
    wire(tls[i]);
  }
  if (location.hash) {
    var m = /^#(.+)-s(\d+)$/.exec(location.hash);
    var tl = m ? document.getElementById(m[1]) : null;
    if (tl) {
      show(tl, Number(m[2]));
      tl.scrollIntoView();
    }
  }
  root.setAttribute("data-timelines", String(tls.length));
  root.setAttribute("data-lanes", String(document.querySelectorAll("svg.timeline-svg g.lane").length));
  root.setAttribute("data-bands", String(document.querySelectorAll("svg.timeline-svg g.band").length));
  root.setAttribute("data-charts", String(document.querySelectorAll("svg.chart").length));
  root.setAttribute("data-status", "ok");
  var st = document.getElementById("status");
  if (st) {
    st.textContent = "Script ran: " + tls.length + " timeline(s).";
  }
})();
//]]>
