// The game page: the board of this seat's view, live over a WebSocket, and the seat's moves.
//
// A seat's token travels in the link's #fragment (never in a page request); with it the
// page asks for the seat's own view and may act. Every change is shown: the latest turn is
// marked on the board (class last-action), animated into it and told beside it in plain
// sentences; the move log keeps every turn. Clicking the board works for every game alike:
// each legal action lists the places (data-place in the picture) that select it; the places
// that continue the clicks so far are highlighted; when the clicks name one action it is
// played, when they name several a small chooser offers them. The keyboard does the same
// on the focused board: arrows move a cursor over the places, Enter plays, Escape cancels.
"use strict";

(() => {
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const gameName = root.dataset.game;
  const hides = root.dataset.hides === "true";
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const chooser = $("chooser");
  const HOLD_MS = 250; // after a change's motion, before the next change is shown
  const ANSWER_MS = 10000; // an action sent on the socket and not answered by then: the socket is given up
  const INSPECT_HINT = "Hover over or tap anything on the board to see what it is.";

  let view = JSON.parse($("cg-initial").textContent);
  $("cg-initial").remove(); // read once; later views replace it
  let log = []; // the entries this page holds, from entry logStart on
  let logStart = 0;
  let prefix = [];
  let cursor = null; // the place under the keyboard's cursor
  let sending = false;
  let awaiting = null; // the version of our action, until the socket shows it
  let socket = null;
  let acts = 0; // the ids of the actions sent on the socket
  const answering = new Map(); // id -> the pending action's { resolve, reject }
  let stream = null; // the socket's views, rebuilt from its patches (patches.js)
  let retry = 0;
  let online = true;
  let messageIsConnection = false;
  let thinkingTimer = null;
  let thinkingSince = 0;
  const queue = []; // views from the socket waiting for the motion before them to end
  let busyUntil = 0;
  let pumping = false;

  // -- taking views in ----------------------------------------------------------------------

  function takeLog(next, whole) {
    if (whole || next.log_from < logStart) {
      log = next.log.slice();
      logStart = next.log_from;
    } else if (next.log_from <= logStart + log.length) {
      log = log.slice(0, next.log_from - logStart).concat(next.log);
    } else {
      return false; // a gap: entries were missed
    }
    return true;
  }

  // A view from the socket waits until the change before it has been seen.
  function later(next) {
    queue.push(next);
    pump();
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        const wait = busyUntil - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        accept(queue.shift(), false);
      }
    } finally {
      pumping = false;
    }
  }

  function accept(next, whole) {
    if (next.version < view.version) return; // an answer overtaken by a newer update
    if (!takeLog(next, whole)) {
      refresh();
      return;
    }
    const boardChanged = next.svg !== view.svg || next.version !== view.version;
    // Only a change of the game moves things: the same position seen anew (the seat's own
    // view after the page's first, a spectator's) is simply shown.
    const before = next.version !== view.version ? cgBoard.snapshot(board) : null;
    view = next;
    if (awaiting !== null && view.version >= awaiting) {
      awaiting = null;
      sending = false;
    }
    if (boardChanged) {
      prefix = [];
      cursor = null;
    }
    render(boardChanged, before);
  }

  function render(boardChanged, before) {
    if (boardChanged || !cgBoard.picture(board)) {
      board.innerHTML = view.svg; // the server's picture
      describePicture();
      // What the line under the board said was about the old picture.
      $("inspect").textContent = INSPECT_HINT;
    }
    cgBoard.fitTexts(board);
    cgBoard.markTurn(board, view.turn);
    if (boardChanged && before) {
      const motion = cgBoard.animate(board, before, view.turn);
      if (motion) busyUntil = performance.now() + motion + HOLD_MS;
    }
    $("text").textContent = view.text;
    renderStatus();
    renderSeat();
    renderStory();
    renderActions();
    renderLegend();
    renderLog();
    renderPlayers();
    highlight();
    // For the page's other scripts (talk.js, ending.js, clocks.js): the view and the log as
    // now shown.
    document.dispatchEvent(new CustomEvent("cg:view", { detail: { view, log, token } }));
  }

  function describePicture() {
    const svg = cgBoard.picture(board);
    if (!svg) return;
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${view.title}: the board. The text view below describes it.`);
  }

  function myTurn() {
    return view.viewer !== null && view.to_act === view.viewer && view.legal.length > 0;
  }

  function canAct() {
    return myTurn() && online && !sending;
  }

  // -- the status line, the seat, the players ---------------------------------------------

  function renderStatus() {
    const status = $("status");
    status.classList.toggle("your-turn", myTurn());
    let text;
    if (view.result) text = `Game over: ${view.result.summary}`;
    else if (myTurn() && !online) text = "Your turn: waiting for the connection to come back…";
    else if (myTurn()) text = `Your turn, ${view.viewer_name}.`;
    else if (view.thinking) text = `${view.to_act_name} (${view.thinking.who}) is thinking…`;
    else if (view.to_act_name) text = `Waiting for ${view.to_act_name}.`;
    else text = "";
    status.textContent = text;
    document.title = `${myTurn() ? "▶ Your turn · " : ""}${view.title} · chaosgames`;
    cg.show($("result"), !!view.result);
    if (view.result) $("result-text").textContent = view.result.summary;
    cg.problem($("trouble"), view.trouble);
    renderThinking();
    const open = !hides || view.status === "finished";
    $("replay-link").hidden = !open;
    $("record-link").hidden = !open;
  }

  function renderThinking() {
    const box = $("thinking");
    if (!view.thinking) {
      box.hidden = true;
      clearInterval(thinkingTimer);
      thinkingTimer = null;
      return;
    }
    thinkingSince = performance.now() - view.thinking.elapsed * 1000;
    box.hidden = false;
    const tick = () => {
      if (!view.thinking) return;
      const seconds = (performance.now() - thinkingSince) / 1000;
      const budget = view.thinking.budget;
      box.querySelector(".label").textContent = `${seconds.toFixed(1)} s` + (budget ? ` of ${budget} s` : "");
      const share = budget ? Math.min(1, seconds / budget) : (seconds % 2) / 2;
      box.querySelector(".fill").style.width = `${Math.round(share * 100)}%`;
    };
    tick();
    if (!thinkingTimer) thinkingTimer = setInterval(tick, 200);
  }

  function renderSeat() {
    const line = $("seat-line");
    if (view.viewer === null) {
      line.textContent = token ? "This link's seat could not be opened." : "You are watching (spectator).";
    } else {
      line.replaceChildren("You play ", cg.el("strong", {}, view.viewer_name), ". This page's address is your private link: keep it to yourself.");
    }
    $("copy-seat").hidden = view.viewer === null;
  }

  function renderPlayers() {
    $("players").replaceChildren(
      ...view.players.map((p) =>
        cg.el(
          "li",
          { class: p.seat === view.to_act && !view.result ? "to-act" : "", "data-seat": p.seat },
          p.seat === view.to_act && !view.result ? "▶ " : "",
          p.name,
          " ",
          cg.el("span", { class: "who" }, p.human ? "person" : p.who),
          p.seat === view.viewer ? cg.el("span", { class: "you-badge" }, "you") : null,
        ),
      ),
    );
  }

  // -- the latest turn, told -----------------------------------------------------------------

  function renderStory() {
    const turn = view.turn;
    const events = turn ? turn.events : [];
    const first = events.find((e) => e.actor >= 0);
    $("story-title").textContent = !events.length
      ? "Last turn"
      : first
        ? `Last turn: ${first.who}`
        : "Setting up";
    const list = $("story-list");
    list.replaceChildren(...cgBoard.storyItems(events));
    list.scrollTop = list.scrollHeight; // a long turn: its end (a crash, a win) in sight
    $("story").hidden = events.length === 0;
  }

  function renderLegend() {
    const sections = view.legend || [];
    cgBoard.legend($("legend-body"), sections);
    $("legend").hidden = sections.length === 0;
  }

  // -- the actions -------------------------------------------------------------------------------

  function groups() {
    const found = new Map();
    for (const action of view.legal) {
      const key = `${action.order}\u0000${action.group}`;
      if (!found.has(key)) found.set(key, { order: action.order, heading: action.group, actions: [] });
      found.get(key).actions.push(action);
    }
    const groups = [...found.values()].sort((a, b) => a.order - b.order);
    // A group's rules link opens the section most of its actions follow.
    for (const group of groups) {
      const counts = new Map();
      for (const a of group.actions) counts.set(a.rules, (counts.get(a.rules) || 0) + 1);
      group.rules = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    }
    return groups;
  }

  function rulesLink(anchor, label) {
    const href = `/rules/${encodeURIComponent(gameName)}${anchor ? `#${anchor}` : ""}`;
    return cg.el("a", { class: "rules-link", href, target: "_blank", rel: "noopener" }, label);
  }

  function renderActions() {
    const box = $("actions-box");
    box.hidden = !myTurn() || !online;
    $("notation").placeholder = view.legal.length ? `e.g. ${view.legal[0].notation}` : "";
    const all = groups();
    $("actions").replaceChildren(
      ...all.map((group) =>
        cg.el(
          "section",
          { class: "action-group" },
          group.heading || all.length > 1 || group.rules
            ? cg.el("h3", {}, group.heading || "Actions", " ", rulesLink(group.rules, "rules"))
            : null,
          cg.el(
            "ul",
            { class: "actions" },
            group.actions.map((action) => {
              const button = cg.el(
                "button",
                { type: "button", class: "action", "data-notation": action.notation },
                cg.el("span", { class: "description" }, action.description),
                cg.el("code", {}, action.notation),
              );
              button.addEventListener("click", () => send(action.notation));
              button.addEventListener("mouseenter", () => highlight(action.places.length ? action.places : undefined));
              button.addEventListener("mouseleave", () => highlight());
              button.addEventListener("focus", () => highlight(action.places.length ? action.places : undefined));
              button.addEventListener("blur", () => highlight());
              return cg.el("li", {}, button);
            }),
          ),
        ),
      ),
    );
  }

  // -- the move log, turn by turn -------------------------------------------------------------

  // "red: move:N3 (...)" already names who acted: the log does not say it twice.
  function said(entry) {
    const prefix = `${entry.who}: `;
    return entry.description.startsWith(prefix) ? entry.description.slice(prefix.length) : entry.description;
  }

  // A sentence that names its actor ("red crashes ...", "The malfunction moves blue's car")
  // needs no name before it.
  function named(entry) {
    return entry.actor < 0 || entry.description.includes(entry.who);
  }

  function turnHeading(entries) {
    const first = entries.find((e) => e.actor >= 0);
    if (entries[0].turn === 0 || !first) return "Setup";
    return `Turn ${entries[0].turn}: ${first.who}`;
  }

  function renderLog() {
    const box = $("log");
    const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    const turns = [];
    for (const entry of log) {
      const last = turns[turns.length - 1];
      if (last && last[0].turn === entry.turn) last.push(entry);
      else turns.push([entry]);
    }
    box.replaceChildren(
      ...turns.map((entries) =>
        cg.el(
          "section",
          { class: "turn", "data-turn": entries[0].turn },
          cg.el("h3", {}, turnHeading(entries)),
          cg.el(
            "ol",
            {},
            entries.map((e) =>
              cg.el(
                "li",
                { class: e.actor < 0 ? "chance" : e.actor === view.viewer ? "mine" : "", "data-seq": e.seq, value: e.seq },
                named(e) ? null : cg.el("span", { class: "who" }, e.who),
                named(e) ? null : " ",
                said(e),
                " ",
                cg.el("code", {}, e.notation),
              ),
            ),
          ),
        ),
      ),
    );
    $("log-earlier").hidden = logStart === 0;
    if (atBottom || turns.length <= 1) box.scrollTop = box.scrollHeight;
  }

  $("log-earlier").addEventListener("click", async () => {
    try {
      const page = await cg.request("GET", `/api/games/${encodeURIComponent(gameId)}/log?stop=${logStart}`, { token });
      if (page.start + page.log.length === logStart) {
        log = page.log.concat(log);
        logStart = page.start;
      }
      renderLog();
      $("log").scrollTop = 0;
    } catch (err) {
      say(err.message, err.status === 0);
    }
  });

  // -- the board: places, clicks and keys --------------------------------------------------------

  function svg() {
    return cgBoard.picture(board);
  }

  function placed() {
    return view.legal.filter((a) => a.places.length > 0);
  }

  function startsWith(places, head) {
    return head.every((p, i) => places[i] === p);
  }

  function candidates(head) {
    return placed().filter((a) => a.places.length >= head.length && startsWith(a.places, head));
  }

  function nextPlaces(head) {
    const next = new Set();
    for (const a of candidates(head)) if (a.places.length > head.length) next.add(a.places[head.length]);
    return next;
  }

  // Outlines over the places: `hover` (an action in the list), else the places picked so
  // far, the places that may come next and the keyboard's cursor.
  function highlight(hover) {
    const picture = svg();
    if (!picture) return;
    for (const old of picture.querySelectorAll(".cg-mark")) old.remove();
    if (!canAct()) return;
    const marks = [];
    if (hover) {
      hover.forEach((p) => marks.push([p, "cg-mark cg-hover"]));
    } else {
      prefix.forEach((p) => marks.push([p, "cg-mark cg-picked"]));
      nextPlaces(prefix).forEach((p) => marks.push([p, "cg-mark cg-next"]));
      if (cursor !== null) marks.push([cursor, "cg-mark cg-cursor"]);
    }
    for (const [place, cls] of marks) {
      const b = cgBoard.userBox(cgBoard.placeNodes(picture, place));
      if (b) cgBoard.outline(picture, b, cls, place);
    }
  }

  function placesUnder(event) {
    const out = [];
    for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
      const holder = node.closest && node.closest("[data-place]");
      if (holder && board.contains(holder)) {
        const place = holder.getAttribute("data-place");
        if (!out.includes(place)) out.push(place);
      }
    }
    return out;
  }

  function inspect(text) {
    if (text) $("inspect").textContent = text;
  }

  board.addEventListener("mousemove", (event) => inspect(cgBoard.titleAt(board, event.clientX, event.clientY)));

  board.addEventListener("click", (event) => {
    inspect(cgBoard.titleAt(board, event.clientX, event.clientY));
    if (!canAct()) return;
    // The chooser opens on the half of the board away from the click, so as not to hide it.
    const rect = board.getBoundingClientRect();
    chooser.classList.toggle("at-bottom", event.clientY < rect.top + rect.height / 2);
    pick(placesUnder(event));
  });

  // A click (or Enter) on places `under`: go on with the clicks so far, or start again.
  // Games name their places so that going on is never a change of mind in disguise: a
  // checkers potion starts at its own badge, so a click on another of your pieces after
  // picking one selects that piece (as on lichess), it never spends a potion.
  function pick(under) {
    if (under.length === 0) return;
    const next = nextPlaces(prefix);
    let place = under.find((p) => next.has(p));
    if (place !== undefined) {
      choose(prefix.concat([place]));
      return;
    }
    // A click on the last place of an action picked so far: skip the places between.
    for (const p of under) {
      const finishing = candidates(prefix).filter((a) => a.places.length > prefix.length && a.places[a.places.length - 1] === p);
      if (finishing.length) {
        offer(finishing);
        return;
      }
    }
    // Start again from the place clicked, if some action starts there.
    const starts = nextPlaces([]);
    place = under.find((p) => starts.has(p));
    prefix = [];
    closeChooser();
    if (place !== undefined) choose([place]);
    else highlight();
  }

  function choose(head) {
    prefix = head;
    const found = candidates(head);
    const complete = found.filter((a) => a.places.length === head.length);
    const longer = found.length - complete.length;
    if (complete.length === 1 && longer === 0) {
      send(complete[0].notation);
      return;
    }
    if (complete.length >= 1) offer(complete, longer > 0);
    else closeChooser();
    highlight();
  }

  function offer(actions, more) {
    const list = chooser.querySelector("ul");
    if (actions.length === 1 && !more) {
      send(actions[0].notation);
      return;
    }
    list.replaceChildren(
      ...actions.map((a) => {
        const button = cg.el("button", { type: "button", class: "action" }, cg.el("span", { class: "description" }, a.description), cg.el("code", {}, a.notation));
        button.addEventListener("click", () => send(a.notation));
        return cg.el("li", {}, button);
      }),
    );
    chooser.querySelector("p").textContent = more ? "Play one of these, or click on:" : "Which one?";
    chooser.hidden = false;
  }

  function closeChooser() {
    chooser.hidden = true;
  }

  function cancel() {
    prefix = [];
    closeChooser();
    highlight();
  }

  chooser.querySelector(".cancel").addEventListener("click", () => {
    cancel();
    board.focus();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancel();
  });

  // The keyboard's cursor walks the places that may come next: left and right in reading
  // order (so every one is reached), up and down to the nearest place above or below.
  function centres() {
    const picture = svg();
    const found = [];
    for (const place of nextPlaces(prefix)) {
      const b = cgBoard.userBox(cgBoard.placeNodes(picture, place));
      if (b) found.push({ place, x: b.x + b.width / 2, y: b.y + b.height / 2, h: b.height });
    }
    const row = Math.max(1, Math.min(...found.map((c) => c.h)) / 2);
    found.sort((a, b) => Math.round(a.y / row) - Math.round(b.y / row) || a.x - b.x);
    return found;
  }

  function moveCursor(key) {
    const spots = centres();
    if (!spots.length) return;
    let i = spots.findIndex((s) => s.place === cursor);
    if (i < 0) {
      i = 0;
    } else if (key === "ArrowRight") {
      i = (i + 1) % spots.length;
    } else if (key === "ArrowLeft") {
      i = (i - 1 + spots.length) % spots.length;
    } else {
      const here = spots[i];
      const down = key === "ArrowDown";
      let best = -1, score = Infinity;
      spots.forEach((s, j) => {
        const dy = down ? s.y - here.y : here.y - s.y;
        if (j === i || dy <= 1) return;
        const d = dy + 2 * Math.abs(s.x - here.x);
        if (d < score) { score = d; best = j; }
      });
      i = best >= 0 ? best : (down ? (i + 1) % spots.length : (i - 1 + spots.length) % spots.length);
    }
    cursor = spots[i].place;
    inspect(cgBoard.placeTitle(board, cursor) || `Place ${cursor}`);
    highlight();
  }

  board.addEventListener("keydown", (event) => {
    if (!canAct()) return;
    if (["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"].includes(event.key)) {
      event.preventDefault();
      moveCursor(event.key);
    } else if ((event.key === "Enter" || event.key === " ") && cursor !== null) {
      event.preventDefault();
      const place = cursor;
      cursor = null;
      pick([place]);
      if (!sending && nextPlaces(prefix).size) moveCursor("ArrowRight");
    } else if (event.key === "Escape") {
      cursor = null;
      cancel();
      // Back at the start, the cursor is on the first place again: Enter needs no arrow first.
      if (nextPlaces(prefix).size) moveCursor("ArrowRight");
    }
  });

  board.addEventListener("focus", () => {
    if (canAct() && cursor === null && nextPlaces(prefix).size) moveCursor("ArrowRight");
  });

  // -- acting -----------------------------------------------------------------------------------

  async function send(notation) {
    if (sending || !token) return;
    if (!online) {
      say("The server cannot be reached; your move waits until the connection is back.", true);
      return;
    }
    sending = true;
    closeChooser();
    highlight();
    say("");
    try {
      const answer = await play(notation);
      $("notation").value = "";
      if (view.version >= answer.version) {
        sending = false;
      } else {
        awaiting = answer.version; // nothing more is sent until the socket shows it
        if (!window.chaosgamesPage.live) refresh();
        // Should the socket not show it soon (a connection silently gone), ask for it.
        setTimeout(() => { if (awaiting !== null && view.version < awaiting) refresh(); }, 3000);
      }
    } catch (err) {
      sending = false;
      say(err.message, err.status === 0);
      if (err.status === 0) checkBack();
      else if (err.status === 409) refresh();
      else highlight();
    }
  }

  // On the open socket (no HTTP request per move), else as a POST; either way the answer
  // is short and the new position comes on the socket, as every viewer's does.
  function play(notation) {
    const body = { action: notation, version: view.version };
    if (!window.chaosgamesPage.live || !navigator.onLine) {
      const url = `/api/games/${encodeURIComponent(gameId)}/actions`;
      return cg.request("POST", url, { body, token, prefer: "return=minimal" });
    }
    const id = ++acts;
    const here = socket;
    return new Promise((resolve, reject) => {
      answering.set(id, { resolve, reject });
      here.send(JSON.stringify({ type: "act", id, ...body }));
      // A socket gone silent (no close seen) answers nothing: after a while it is given up
      // and opened anew, and the page asks for the game as it is.
      setTimeout(() => {
        if (!answering.has(id)) return;
        unanswered();
        if (here === socket) here.close();
      }, ANSWER_MS);
    });
  }

  // The answer to an action sent on the socket: acknowledged once committed, or refused.
  function answered(message) {
    const pending = answering.get(message.id);
    if (!pending) return;
    answering.delete(message.id);
    if (message.type === "acted") pending.resolve(message);
    else pending.reject(new cg.Problem(message.status, message));
  }

  // The socket closed with actions unanswered: whether they were committed is unknown, so
  // the page asks for the game as it is (as after a request the server did not answer).
  function unanswered() {
    const lost = new cg.Problem(0, { detail: "The server cannot be reached; check the connection and try again." });
    for (const pending of answering.values()) pending.reject(lost);
    answering.clear();
  }

  // After a request the server did not answer: nothing is offered until it answers again,
  // then the message goes and the page takes the game as it is now.
  let checking = false;
  async function checkBack() {
    if (checking) return;
    checking = true;
    connected(false);
    for (let wait = 500; ; wait = Math.min(5000, wait * 2)) {
      await new Promise((r) => setTimeout(r, wait));
      try {
        const next = await cg.request("GET", `/api/games/${encodeURIComponent(gameId)}`, { token });
        checking = false;
        connected(true);
        accept(next, true);
        return;
      } catch (err) {
        if (err.status !== 0) {
          checking = false;
          say(err.message);
          return;
        }
      }
    }
  }

  function say(message, aboutConnection = false) {
    messageIsConnection = !!message && aboutConnection;
    cg.problem($("message"), message);
  }

  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation").value.trim();
    if (text) send(text);
  });

  // On a phone the whole picture fits the width; zoomed, it is larger and scrolls sideways.
  $("zoom").addEventListener("click", () => {
    const zoomed = board.classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(zoomed));
    $("zoom").textContent = zoomed ? "Fit the board" : "Zoom the board";
    cgBoard.fitTexts(board);
    cgBoard.markTurn(board, view.turn);
    highlight();
  });

  window.addEventListener("resize", () => cgBoard.fitTexts(board));

  $("copy-spectator").addEventListener("click", (event) => cg.copy(cg.absolute(`/games/${gameId}`), event.target));
  $("copy-seat").addEventListener("click", (event) => cg.copy(window.location.href, event.target));

  // -- staying up to date -------------------------------------------------------------------------

  function connected(yes) {
    if (online === yes) return;
    online = yes;
    $("connection").hidden = yes;
    if (yes && messageIsConnection) say("");
    renderStatus();
    renderActions();
    highlight();
  }

  async function refresh() {
    try {
      accept(await cg.request("GET", `/api/games/${encodeURIComponent(gameId)}`, { token }), true);
    } catch (err) {
      say(err.message, err.status === 0);
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
    const here = socket;
    const drop = stream ? stream.tests.drop : 0;
    stream = cgPatches.stream(() => here.send(JSON.stringify({ resync: true })));
    stream.tests.drop = drop;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ token: token || null, table: true, patches: true }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "table") {
        document.dispatchEvent(new CustomEvent("cg:table", { detail: message }));
        return;
      }
      if (message.type === "acted" || message.type === "refused") {
        answered(message);
        return;
      }
      const next = stream.take(message);
      if (next) {
        retry = 0;
        if (!checking) connected(true);
        later(next);
      }
    });
    socket.addEventListener("close", (event) => {
      unanswered();
      if (event.code === 4403 || event.code === 4404 || event.code === 4400) {
        say(event.reason || "The server closed the connection.");
        return;
      }
      // Dropped (server restart, network): come back, more slowly each time; meanwhile
      // nothing is offered that could not be sent.
      connected(false);
      retry += 1;
      setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
    });
  }

  // A whole view another script was answered with (talk.js: after an undo).
  document.addEventListener("cg:take-view", (event) => accept(event.detail, true));

  takeLog(view, true);
  render(true, null);
  if (token) refresh();
  connect();
  window.chaosgamesPage = {
    get view() { return view; },
    get log() { return log; },
    get logStart() { return logStart; },
    get online() { return online; },
    get sending() { return sending; },
    get stream() { return stream; },
    get live() { return online && socket !== null && socket.readyState === WebSocket.OPEN; },
  };
})();
