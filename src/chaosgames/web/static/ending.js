// The table's own features on the game page (issue 50): the game-over panel (how the game
// ended, its short story, the replay and record, the rematch and "new game with these
// settings"), resigning, an absent person's seat handed to a computer or the win claimed,
// and taking one's own seat back. Each view reaches it from game.js ("cg:view" events).
"use strict";

(() => {
  // "1 turn", "2 turns", "0.2 minutes".
  const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  const $ = (id) => document.getElementById(id);
  const api = (path) => `/api/games/${encodeURIComponent(gameId)}${path}`;
  let view = null;
  let storyAsked = false;
  let moving = false;
  let confirming = false;
  let busy = false;

  const HOW = {
    rules: "Ended by the rules.",
    cap: "Ended by the game's length cap (an option, not a rule).",
    resigned: "Ended by a resignation.",
    claimed: "Ended by a win claimed over an absent player.",
    time: "Ended on time.",
  };

  function mySeat() {
    return view && token && view.viewer !== null ? view.viewer : null;
  }

  function name(seat) {
    return view.players[seat].name;
  }

  function duration(seconds) {
    if (seconds < 60) return `${seconds} seconds`;
    if (seconds >= 86400) return `${+(seconds / 86400).toFixed(1)} days`;
    if (seconds >= 3600) return `${+(seconds / 3600).toFixed(1)} hours`;
    return `${Math.round(seconds / 60)} minutes`;
  }

  // -- the game-over panel ----------------------------------------------------------------

  function renderEnding() {
    const table = view.table;
    const over = view.status === "finished";
    if (!over) return;
    const how = table.ending ? HOW[table.ending.how] || "" : "";
    const told = table.ending && table.ending.how !== "resigned" && table.ending.how !== "claimed" && table.ending.how !== "time"
      ? table.ending.sentence : "";
    const howNode = $("ending-how");
    howNode.textContent = [told, how].filter(Boolean).join(" ");
    howNode.hidden = !howNode.textContent;
    const shown = !$("replay-link").hidden;
    $("ending-replay").hidden = !shown;
    $("ending-record").hidden = !shown;
    $("ending-new").href = table.new_game;
    if (!storyAsked) {
      storyAsked = true;
      tellStory();
    }
    renderRematch();
  }

  async function tellStory() {
    try {
      const story = await cg.request("GET", api("/story"));
      const items = [
        `${counted(story.turns, "turn")}, ${counted(story.decisions, "decision")}, in ${counted(story.minutes, "minute")}.`,
        story.lead_changes === 0 ? "The lead never changed." : story.lead_changes === 1 ? "The lead changed once." : `The lead changed ${story.lead_changes} times.`,
      ];
      if (story.turning_point) {
        items.push(`Turning point: turn ${story.turning_point.turn}, when ${story.turning_point.who} took the lead for good.`);
      }
      $("ending-story").replaceChildren(...items.map((t) => cg.el("li", {}, t)));
      $("ending-story").hidden = false;
    } catch (err) {
      storyAsked = false; // asked again with the next view
    }
  }

  function renderRematch() {
    const box = $("rematch");
    const rematch = view.table.rematch;
    const seat = mySeat();
    const person = seat !== null && view.table.seats[seat].person;
    box.hidden = !person && !rematch.game;
    const status = $("rematch-status");
    const button = $("rematch-offer");
    if (!person) {
      button.hidden = true;
      status.replaceChildren(rematch.game ? cg.el("a", { href: `/games/${rematch.game}` }, "Watch the rematch") : "");
      return;
    }
    const mine = rematch.offers.includes(seat);
    const waiting = view.table.seats.filter((s) => s.person && !rematch.offers.includes(s.seat)).map((s) => name(s.seat));
    button.hidden = mine || !!rematch.game;
    button.textContent = rematch.offers.length ? "Accept the rematch" : "Offer a rematch";
    if (rematch.game) {
      status.textContent = "The rematch starts: taking you to your new seat…";
      askForRematch();
    } else if (mine) {
      status.textContent = `Rematch offered: waiting for ${waiting.join(", ")}.`;
    } else if (rematch.offers.length) {
      status.textContent = `${rematch.offers.map(name).join(", ")} offered a rematch (seats turned by one).`;
    } else {
      status.textContent = "";
    }
  }

  // Offering, accepting and going to one's new seat are the same request: its answer
  // carries this seat's own link (from this seat's token) once every person accepted.
  async function askForRematch() {
    if (moving) return;
    const answer = await post("/rematch");
    if (answer && answer.link) follow(answer.link);
  }

  function follow(link) {
    moving = true;
    window.location.assign(link);
  }

  // -- the table while the game runs ---------------------------------------------------------

  function renderTable() {
    const table = view.table;
    const running = view.status === "running";
    const seat = mySeat();
    const rules = [];
    if (table.rules.patience) rules.push(`Patience: ${duration(table.rules.patience)}.`);
    if (table.rules.clock) {
      const out = table.rules.out_of_time === "computer" || view.players.length > 2
        ? "a computer plays the seat on" : "the other player wins";
      rules.push(`Clock: ${duration(table.rules.clock)} each, ${table.rules.increment} s more a decision; out of time, ${out}.`);
    }
    $("table-rules").textContent = rules.join(" ");
    $("table-rules").hidden = !rules.length;
    const absent = running && seat !== null ? absentSeats(seat) : [];
    replaceIfChanged($("table-absent"), absent);
    const mine = running && seat !== null ? myControls(seat) : [];
    replaceIfChanged($("table-mine"), mine);
    $("table-panel").hidden = !running || (seat === null && !rules.length) ;
  }

  function absentSeats(seat) {
    const table = view.table;
    const patience = table.rules.patience;
    if (!patience || !table.seats[seat].person) return [];
    const now = Date.now() / 1000;
    const people = table.seats.filter((s) => s.person).length;
    return table.seats
      .filter((s) => s.seat !== seat && s.person && s.waiting_since !== null)
      .map((s) => {
        const from = s.waiting_since + patience;
        if (now < from) {
          const at = new Date(from * 1000).toLocaleString();
          return cg.el("li", {}, `${name(s.seat)} is awaited; from ${at} their seat may be handed to a computer.`);
        }
        const hand = cg.el("button", { type: "button", class: "small", onclick: () => post(`/seats/${s.seat}/computer`, { level: "medium" }) },
          `Hand ${name(s.seat)}'s seat to a computer`);
        const claim = view.players.length === 2 && people === 2
          ? cg.el("button", { type: "button", class: "small", onclick: () => post("/claim") }, "Claim the win")
          : null;
        return cg.el("li", {}, `${name(s.seat)} has been away longer than the table's patience. `, hand, " ", claim);
      });
  }

  function myControls(seat) {
    const line = view.table.seats[seat];
    const out = [];
    if (line.handed && !line.resigned) {
      out.push(cg.el("p", {}, `A computer (${line.played_by}) plays your seat now. `,
        cg.el("button", { type: "button", class: "small primary", onclick: () => post(`/seats/${seat}/take-back`) }, "Take your seat back")));
    }
    if (line.person && !line.resigned) {
      if (confirming) {
        out.push(cg.el("p", {}, "Resign this game? ",
          cg.el("button", { type: "button", class: "small danger", id: "resign-yes", onclick: () => { confirming = false; post("/resign"); } }, "Yes, resign"),
          " ",
          cg.el("button", { type: "button", class: "small", onclick: () => { confirming = false; render(); } }, "No, play on")));
      } else {
        const what = view.players.length === 2 ? "the other player wins" : "a computer plays your seat on";
        out.push(cg.el("p", {}, cg.el("button", { type: "button", class: "small", id: "resign", onclick: () => { confirming = true; render(); } }, "Resign"),
          ` (${what})`));
      }
    }
    return out;
  }

  // The panel is drawn again every few seconds (the patience runs out meanwhile): what did
  // not change is left alone, so that a focused button keeps the keyboard's focus.
  function replaceIfChanged(node, children) {
    const html = children.map((c) => c.outerHTML).join("");
    if (node.dataset.drawn === html) return;
    node.dataset.drawn = html;
    node.replaceChildren(...children);
  }

  // The answer, or null when another request is under way or this one failed (said).
  async function post(path, body) {
    if (busy) return null;
    busy = true;
    say("");
    try {
      return await cg.request("POST", api(path), { token, body });
    } catch (err) {
      say(err.message);
      return null;
    } finally {
      busy = false;
    }
  }

  function say(message) {
    const node = view && view.status === "finished" ? $("rematch-status") : $("table-message");
    if (node.id === "table-message") cg.problem(node, message);
    else if (message) node.textContent = message;
  }

  function render() {
    if (!view) return;
    renderTable();
    renderEnding();
  }

  $("rematch-offer").addEventListener("click", askForRematch);
  document.addEventListener("cg:view", (event) => {
    view = event.detail.view;
    render();
  });
  // The views game.js took before this script ran, and the patience running out meanwhile.
  if (window.chaosgamesPage) {
    view = window.chaosgamesPage.view;
    render();
  }
  setInterval(render, 5000);
})();
