// The game page: the board of this seat's view, live over a WebSocket, and the seat's moves.
//
// A seat's token travels in the link's #fragment (never in a page request); with it the
// page asks for the seat's own view and may act. Clicking the board works for every game
// alike: each legal action lists the places (data-place in the picture) that select it;
// the places that continue the clicks so far are highlighted; when the clicks name one
// action it is played, when they name several a small chooser offers them.
"use strict";

(() => {
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const hides = root.dataset.hides === "true";
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const chooser = $("chooser");

  let view = JSON.parse($("cg-initial").textContent);
  $("cg-initial").remove(); // read once; later views replace it
  let log = [];
  let prefix = [];
  let sending = false;
  let socket = null;
  let retry = 0;
  let thinkingTimer = null;
  let thinkingSince = 0;

  // -- showing a view ------------------------------------------------------------------------

  function accept(next, fullLog) {
    if (next.version < view.version) return; // an answer overtaken by a newer update
    if (fullLog || next.log_from === 0) {
      log = next.log.slice();
    } else if (next.log_from === log.length) {
      log = log.concat(next.log);
    } else if (next.log_from < log.length) {
      log = log.slice(0, next.log_from).concat(next.log);
    } else {
      refresh();
      return;
    }
    const boardChanged = next.svg !== view.svg || next.version !== view.version;
    view = next;
    if (boardChanged) prefix = [];
    render(boardChanged);
  }

  function render(boardChanged) {
    if (boardChanged || !board.querySelector("svg")) board.innerHTML = view.svg; // the server's picture
    $("text").textContent = view.text;
    renderStatus();
    renderSeat();
    renderActions();
    renderEvents();
    renderLog();
    renderPlayers();
    highlight();
  }

  function myTurn() {
    return view.viewer !== null && view.to_act === view.viewer && view.legal.length > 0;
  }

  function renderStatus() {
    const status = $("status");
    status.classList.toggle("your-turn", myTurn());
    let text;
    if (view.result) text = `Game over: ${view.result.summary}`;
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
          { class: p.seat === view.to_act && !view.result ? "to-act" : "" },
          p.seat === view.to_act && !view.result ? "▶ " : "",
          p.name,
          " ",
          cg.el("span", { class: "who" }, p.human ? "person" : p.who),
          p.seat === view.viewer ? cg.el("span", { class: "you-badge" }, "you") : null,
        ),
      ),
    );
  }

  function renderActions() {
    const box = $("actions-box");
    box.hidden = !myTurn();
    $("notation").placeholder = view.legal.length ? `e.g. ${view.legal[0].notation}` : "";
    const list = $("actions");
    list.replaceChildren(
      ...view.legal.map((action) => {
        const button = cg.el(
          "button",
          { type: "button", class: "action", "data-notation": action.notation },
          cg.el("span", { class: "description" }, action.description),
          cg.el("code", {}, action.notation),
        );
        button.addEventListener("click", () => send(action.notation));
        button.addEventListener("mouseenter", () => highlight(action.places.length ? action.places : undefined));
        button.addEventListener("mouseleave", () => highlight());
        return cg.el("li", {}, button);
      }),
    );
  }

  function renderEvents() {
    // Dice and draws of the turn in progress, as they happened: the chance outcomes since
    // the last decision of a seat other than the one who acts now (or the viewer).
    const me = view.viewer !== null ? view.viewer : view.to_act;
    let start = log.length;
    while (start > 0) {
      const actor = log[start - 1].actor;
      if (actor >= 0 && actor !== me) break;
      start -= 1;
    }
    const chance = log.slice(start).filter((e) => e.actor < 0);
    const shown = chance.slice(-5);
    const items = shown.map((e) => cg.el("li", {}, e.description, " ", cg.el("code", {}, e.notation)));
    if (chance.length > shown.length) items.unshift(cg.el("li", { class: "hint" }, `… ${chance.length - shown.length} earlier`));
    $("events-list").replaceChildren(...items);
    $("events").hidden = items.length === 0;
  }

  // "red: move:N3 (...)" already names who acted: the log does not say it twice.
  function said(entry) {
    const prefix = `${entry.who}: `;
    return entry.description.startsWith(prefix) ? entry.description.slice(prefix.length) : entry.description;
  }

  function renderLog() {
    const list = $("log");
    const names = list.children;
    // Append only what is new; rebuild when the log was replaced.
    if (names.length > log.length || (names.length && Number(names[names.length - 1].dataset.seq) !== names.length)) {
      list.replaceChildren();
    }
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    for (let i = list.children.length; i < log.length; i++) {
      const e = log[i];
      list.append(
        cg.el(
          "li",
          { class: e.actor < 0 ? "chance" : e.actor === view.viewer ? "mine" : "", "data-seq": e.seq, value: e.seq },
          cg.el("span", { class: "who" }, e.who),
          " ",
          said(e),
          " ",
          cg.el("code", {}, e.notation),
        ),
      );
    }
    if (atBottom || list.children.length === log.length) list.scrollTop = list.scrollHeight;
  }

  // -- the board ------------------------------------------------------------------------------

  function svg() {
    return board.querySelector("svg");
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

  function elementsAt(place) {
    const found = [];
    for (const node of svg().querySelectorAll("[data-place]")) {
      if (node.getAttribute("data-place") === place) found.push(node);
    }
    return found;
  }

  function box(nodes) {
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const node of nodes) {
      const b = node.getBBox();
      x1 = Math.min(x1, b.x); y1 = Math.min(y1, b.y);
      x2 = Math.max(x2, b.x + b.width); y2 = Math.max(y2, b.y + b.height);
    }
    return x1 === Infinity ? null : { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  }

  // Outlines over the places: `hover` (an action in the list), else the places picked so
  // far and the places that may come next.
  function highlight(hover) {
    const picture = svg();
    if (!picture) return;
    for (const old of picture.querySelectorAll(".cg-mark")) old.remove();
    if (!myTurn() || sending) return;
    const marks = [];
    if (hover) {
      hover.forEach((p) => marks.push([p, "cg-mark cg-hover"]));
    } else {
      prefix.forEach((p) => marks.push([p, "cg-mark cg-picked"]));
      nextPlaces(prefix).forEach((p) => marks.push([p, "cg-mark cg-next"]));
    }
    for (const [place, cls] of marks) {
      const b = box(elementsAt(place));
      if (!b) continue;
      const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      rect.setAttribute("x", b.x + 1.5);
      rect.setAttribute("y", b.y + 1.5);
      rect.setAttribute("width", Math.max(0, b.width - 3));
      rect.setAttribute("height", Math.max(0, b.height - 3));
      rect.setAttribute("rx", 4);
      rect.setAttribute("class", cls);
      rect.setAttribute("data-mark", place);
      picture.append(rect);
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

  board.addEventListener("click", (event) => {
    if (!myTurn() || sending) return;
    // The chooser opens on the half of the board away from the click, so as not to hide it.
    const rect = board.getBoundingClientRect();
    chooser.classList.toggle("at-bottom", event.clientY < rect.top + rect.height / 2);
    const under = placesUnder(event);
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
  });

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

  chooser.querySelector(".cancel").addEventListener("click", () => {
    prefix = [];
    closeChooser();
    highlight();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      prefix = [];
      closeChooser();
      highlight();
    }
  });

  // -- acting -----------------------------------------------------------------------------------

  async function send(notation) {
    if (sending || !token) return;
    sending = true;
    closeChooser();
    highlight();
    cg.problem($("message"), "");
    try {
      const next = await cg.request("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, {
        body: { action: notation, version: view.version },
        token,
      });
      sending = false;
      accept(next, false);
      $("notation").value = "";
    } catch (err) {
      sending = false;
      cg.problem($("message"), err.message);
      if (err.status === 409) refresh();
      else highlight();
    }
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
    highlight();
  });

  $("copy-spectator").addEventListener("click", (event) => cg.copy(cg.absolute(`/games/${gameId}`), event.target));
  $("copy-seat").addEventListener("click", (event) => cg.copy(window.location.href, event.target));

  // -- staying up to date -------------------------------------------------------------------------

  async function refresh() {
    try {
      accept(await cg.request("GET", `/api/games/${encodeURIComponent(gameId)}`, { token }), true);
    } catch (err) {
      cg.problem($("message"), err.message);
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ token: token || null }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") {
        retry = 0;
        $("connection").hidden = true;
        accept(message.view, false);
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4403 || event.code === 4404 || event.code === 4400) {
        cg.problem($("message"), event.reason || "The server closed the connection.");
        return;
      }
      // Dropped (server restart, network): come back, more slowly each time.
      $("connection").hidden = false;
      retry += 1;
      setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
    });
  }

  log = view.log.slice();
  render(false);
  if (token) {
    refresh();
  }
  connect();
  window.chaosgamesPage = { get view() { return view; }, get log() { return log; } };
})();
