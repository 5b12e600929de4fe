// The table's clocks on the game page (issue 50): each person's time left, counted down
// here from what the server sent (the time left as of `since`, server time) between views.
// The server keeps the clocks and ends the time; this only shows them.
"use strict";

(() => {
  const box = document.getElementById("clocks");
  let view = null;

  function shown(seconds) {
    const left = Math.max(0, seconds);
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = Math.floor(left % 60);
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function render() {
    const clock = view && view.table && view.table.clock;
    box.hidden = !clock;
    if (!clock) return;
    const now = Date.now() / 1000;
    const items = clock.seats
      .filter((line) => line.remaining !== null)
      .map((line) => {
        const running = clock.running === line.seat && view.status === "running";
        const left = running ? line.remaining - (now - clock.since) : line.remaining;
        const who = view.players[line.seat].name;
        return cg.el(
          "span",
          { class: `clock${running ? " running" : ""}${left <= 10 ? " low" : ""}`, "data-seat": line.seat },
          running ? "▶ " : "",
          `${who} ${shown(left)}`,
        );
      });
    box.replaceChildren(...items);
  }

  document.addEventListener("cg:view", (event) => {
    view = event.detail.view;
    render();
  });
  if (window.chaosgamesPage) view = window.chaosgamesPage.view;
  render();
  setInterval(render, 250);
})();
