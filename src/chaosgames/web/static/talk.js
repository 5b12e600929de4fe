// The table beside the game (issue 50): who is present, the table's chat, the signals of
// your turn and "since you last played". It listens to game.js's events: "cg:view" (the
// view and the log as shown) and "cg:table" (the table's news from the WebSocket: presence
// and chat). People's text is only ever set as text, never as HTML.
"use strict";

(() => {
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  const ICON = "/static/favicon.svg";
  const TURN_ICON = "/static/favicon-turn.svg";
  let view = null;
  let log = [];
  let token = null;
  let news = null;
  let wasMyTurn = null; // null until the first view: opening the page is no change of turn

  const saved = {
    get(key) {
      try { return window.localStorage.getItem(key); } catch (err) { return null; }
    },
    set(key, value) {
      try { window.localStorage.setItem(key, value); } catch (err) { /* private mode */ }
    },
  };

  function myTurn() {
    return !!view && view.viewer !== null && view.to_act === view.viewer && view.legal.length > 0;
  }

  // -- presence ---------------------------------------------------------------------------------

  function ago(at) {
    const seconds = Math.max(0, Date.now() / 1000 - at);
    if (seconds < 60) return "just now";
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
    return `${Math.floor(seconds / 86400)} d ago`;
  }

  function renderPresence() {
    if (!news) return;
    for (const p of news.presence) {
      const item = document.querySelector(`#players li[data-seat="${p.seat}"]`);
      if (!item) continue;
      let span = item.querySelector(".presence");
      if (!span) {
        span = cg.el("span", { class: "presence" });
        item.append(" ", span);
      }
      const state = !p.human ? "computer" : p.connected ? "online" : "away";
      span.className = `presence ${state}`;
      span.dataset.connected = String(p.connected);
      const acted = p.last_acted ? `last acted ${ago(p.last_acted)}` : "has not acted yet";
      span.textContent = p.human ? `${p.connected ? "connected" : "away"}, ${acted}` : acted;
    }
    const watching = news.spectators;
    $("spectators").hidden = !watching;
    $("spectators").textContent = `${watching} watching`;
  }

  setInterval(renderPresence, 30_000); // "3 min ago" grows old

  // -- your turn: title, favicon, sound, notification -----------------------------------------

  function setIcon(href) {
    const link = document.querySelector('link[rel="icon"]');
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }

  function beep() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    const audio = new Audio();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    tone.frequency.setValueAtTime(880, audio.currentTime + 0.12);
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
    tone.onended = () => audio.close();
  }

  function soundOn() {
    return saved.get("cg-turn-sound") === "on";
  }

  function notifying() {
    return "Notification" in window && Notification.permission === "granted" && saved.get("cg-turn-notify") === "on";
  }

  function renderSignals() {
    const seat = !!view && view.viewer !== null;
    $("turn-signals").hidden = !seat;
    const sound = $("turn-sound");
    sound.setAttribute("aria-pressed", String(soundOn()));
    sound.textContent = `Sound on my turn: ${soundOn() ? "on" : "off"}`;
    const notify = $("turn-notify");
    notify.hidden = !seat || !("Notification" in window) || Notification.permission === "denied";
    notify.textContent = notifying() ? "Notifications on: turn off" : "Notify me when it is my turn";
  }

  $("turn-sound").addEventListener("click", () => {
    saved.set("cg-turn-sound", soundOn() ? "off" : "on");
    if (soundOn()) beep(); // what it will sound like
    renderSignals();
  });

  $("turn-notify").addEventListener("click", async () => {
    if (notifying()) {
      saved.set("cg-turn-notify", "off");
    } else {
      const answer = await Notification.requestPermission();
      saved.set("cg-turn-notify", answer === "granted" ? "on" : "off");
    }
    renderSignals();
  });

  function signalTurn() {
    const mine = myTurn();
    setIcon(mine ? TURN_ICON : ICON);
    if (wasMyTurn === false && mine) {
      if (soundOn()) beep();
      if (document.hidden && notifying()) {
        const note = new Notification(`Your turn · ${view.title}`, {
          body: `${view.viewer_name}, it is your turn.`,
          tag: `chaosgames-${gameId}`,
        });
        note.onclick = () => { window.focus(); note.close(); };
      }
    }
    wasMyTurn = mine;
  }

  // -- since you last played ----------------------------------------------------------------------

  function renderSince() {
    const box = $("since");
    const since = view && view.since;
    const entries = since ? log.filter((e) => e.seq >= since) : [];
    const others = entries.some((e) => e.actor >= 0 && e.actor !== view.viewer);
    box.hidden = !others || !!view.result;
    if (box.hidden) return;
    const shown = entries.slice(-30);
    const items = shown.map((e) =>
      cg.el("li", { class: e.actor < 0 ? "chance" : "" }, e.description.includes(e.who) ? "" : `${e.who}: `, e.description),
    );
    if (shown.length < entries.length || since < (log.length ? log[0].seq : since)) {
      items.unshift(cg.el("li", { class: "more" }, "… and earlier moves (see below)"));
    }
    $("since-list").replaceChildren(...items);
  }

  // -- the chat -------------------------------------------------------------------------------------

  function muted() {
    return saved.get(`cg-chat-muted`) === "on";
  }

  function time(at) {
    return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function renderChat() {
    const seat = !!view && view.viewer !== null && !!token;
    $("chat-body").hidden = muted();
    $("chat-muted").hidden = !muted();
    $("chat-mute").setAttribute("aria-pressed", String(muted()));
    $("chat-mute").textContent = muted() ? "Unmute chat" : "Mute chat";
    $("chat-form").hidden = !seat;
    $("reactions").hidden = !seat;
    const messages = news ? news.chat : [];
    $("chat-empty").hidden = messages.length > 0;
    if (muted()) return;
    const list = $("chat-list");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.replaceChildren(
      ...messages.map((m) =>
        cg.el("li", { "data-id": m.id }, cg.el("span", { class: "name" }, m.name), m.text, cg.el("span", { class: "at" }, time(m.at))),
      ),
    );
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  async function say(text) {
    cg.problem($("chat-problem"), "");
    try {
      news = await cg.request("POST", `/api/games/${encodeURIComponent(gameId)}/chat`, { body: { text }, token });
      renderChat();
      return true;
    } catch (err) {
      cg.problem($("chat-problem"), err.message);
      return false;
    }
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $("chat-text");
    const text = box.value.trim();
    // Cleared only if it still holds what was sent: the person may already be typing the
    // next message while this one is on its way (a refused one stays, to send again).
    if (text && (await say(text)) && box.value.trim() === text) box.value = "";
  });

  for (const button of $("reactions").querySelectorAll("button")) {
    button.addEventListener("click", () => say(button.textContent));
  }

  $("chat-mute").addEventListener("click", () => {
    saved.set("cg-chat-muted", muted() ? "off" : "on");
    renderChat();
  });

  // -- undo and takebacks -------------------------------------------------------------------------

  function renderUndo() {
    const offer = (view && view.undo) || { undo: false, takeback: 0 };
    const request = news && news.takeback && view && news.takeback.version === view.version ? news.takeback : null;
    const me = view ? view.viewer : null;
    const seat = me !== null && !!token;
    const asked = !!request && request.seat === me;
    const answering = !!request && seat && request.waiting.includes(me);
    $("undo").hidden = !seat || !offer.undo || answering; // an answer first: an undo would void the request
    $("takeback-ask").hidden = !seat || !!request || offer.takeback === 0;
    $("takeback-ask").textContent = offer.takeback > 1 ? `Ask to take back the last ${offer.takeback} actions` : "Ask to take back my last move";
    $("takeback-accept").hidden = !answering;
    $("takeback-decline").hidden = !answering;
    $("takeback-withdraw").hidden = !asked;
    const line = $("takeback-text");
    line.hidden = !request;
    if (request) {
      const actions = request.count === 1 ? "the last action" : `the last ${request.count} actions`;
      const names = request.waiting.map((i) => view.players[i].name).join(", ");
      line.textContent = asked
        ? `You asked to take back ${actions}; waiting for ${names}.`
        : `${request.name} asks to take back ${actions}` + (answering ? ": do you accept?" : `; waiting for ${names}.`);
    }
    $("undo-box").hidden = [...$("undo-box").querySelectorAll("button, p#takeback-text")].every((b) => b.hidden);
  }

  async function tableRequest(path, after) {
    cg.problem($("undo-problem"), "");
    try {
      const answer = await cg.request("POST", `/api/games/${encodeURIComponent(gameId)}/${path}`, { body: { version: view.version }, token });
      after(answer);
    } catch (err) {
      cg.problem($("undo-problem"), err.message);
    }
  }

  $("undo").addEventListener("click", () =>
    tableRequest("undo", (next) => document.dispatchEvent(new CustomEvent("cg:take-view", { detail: next }))),
  );
  for (const [id, path] of [["takeback-ask", "takeback"], ["takeback-accept", "takeback/accept"], ["takeback-decline", "takeback/decline"], ["takeback-withdraw", "takeback/decline"]]) {
    $(id).addEventListener("click", () => tableRequest(path, (next) => { news = next; renderUndo(); }));
  }

  // -- from game.js ---------------------------------------------------------------------------------

  document.addEventListener("cg:view", (event) => {
    ({ view, log, token } = event.detail);
    signalTurn();
    renderSignals();
    renderSince();
    renderPresence();
    renderChat();
    renderUndo();
  });

  document.addEventListener("cg:table", (event) => {
    news = event.detail;
    renderPresence();
    renderChat();
    renderUndo();
  });

  window.chaosgamesTable = {
    get news() { return news; },
  };
})();
