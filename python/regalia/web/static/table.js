// A seat's table: draws the payload the server sends (picture, moves, log, ending), sends
// the person's moves, undo and back, and follows the table live (server-sent events).
"use strict";
(function () {
  const main = document.querySelector("main.table");
  const token = main.dataset.token;
  const $ = (id) => document.getElementById(id);
  let state = JSON.parse($("payload").textContent);
  let typed = "";
  let typedTimer = null;
  let busy = false;

  function item(text, cls, number) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    if (number !== undefined) li.value = number;
    return li;
  }

  function status(p) {
    if (p.over) return "The game is over.";
    if (p.shared && p.seat === null) return `${p.names[p.waiting.seat]} (${p.agents[p.waiting.seat]}) to move…`;
    const w = p.waiting;
    if (p.seat !== null && w.seat === p.seat) return "Your move: click it, or type its number.";
    return `${p.names[w.seat]} (${p.agents[w.seat]}) to move…`;
  }

  // The final scores, from the game's outcome (public once it is over): one row a seat, the
  // winners marked; hidden while the game runs. The ending above says the result in words.
  function finalScores(p) {
    const table = $("scores");
    table.replaceChildren();
    table.hidden = !p.outcome;
    if (!p.outcome) return;
    const caption = document.createElement("caption");
    caption.textContent = p.outcome.winners.length ? "Final scores" : "Final scores: a draw";
    table.append(caption);
    p.outcome.scores.forEach((score, seat) => {
      const row = document.createElement("tr");
      const won = p.outcome.winners.includes(seat);
      if (won) row.className = "won";
      for (const text of [p.names[seat], String(score), won ? "wins" : ""]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      table.append(row);
    });
  }

  function render(p, first) {
    // A move's answer may come after the live update of a later move: never go back.
    if (!first && p.version < state.version) return;
    state = p;
    // A shared screen between two people: nothing of any seat until the next one takes it.
    const handing = p.hand_over !== null;
    $("handover").hidden = !handing;
    $("board").hidden = handing;
    main.classList.toggle("handing", handing);
    if (handing) {
      $("handover-text").textContent = `Hand the screen to seat ${p.hand_over}; nobody else should look.`;
      $("take").textContent = `I am seat ${p.hand_over}`;
      $("take").dataset.seat = p.hand_over;
    }
    $("whose").textContent = p.shared && p.seat !== null ? `Seat ${p.seat}'s view` : "";
    $("picture").innerHTML = p.picture;
    $("status").textContent = status(p);
    $("introduction").textContent = p.introduction;
    const moves = $("moves");
    moves.replaceChildren();
    for (const m of p.moves) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.action = m.action;
      b.dataset.n = m.n;
      const k = document.createElement("kbd");
      k.textContent = m.n;
      b.append(k, m.name);
      b.addEventListener("click", () => play(m.action));
      const li = document.createElement("li");
      li.append(b);
      moves.append(li);
    }
    const log = $("log");
    log.replaceChildren();
    for (const e of p.log) {
      const lines = e.lines.length ? e.lines : (e.name ? [e.name] : []);
      // The list numbers each line with its move's number (its ply), and nothing else does.
      for (const line of lines) log.append(item(line, e.forced ? "forced" : "", e.ply));
    }
    log.parentElement.scrollTop = log.parentElement.scrollHeight;
    $("undo").hidden = !p.undo;
    $("back").hidden = !p.back;
    $("ending").textContent = p.ending.join("\n");
    finalScores(p);
    document.body.dataset.version = p.version;
    document.body.dataset.over = p.over;
    document.body.dataset.turn = p.moves.length ? "yes" : "no";
    document.body.dataset.handover = handing ? String(p.hand_over) : "";
  }

  async function send(path, body) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "yes";
    $("message").textContent = "";
    try {
      const r = await fetch(`/api/t/${token}/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const data = await r.json();
      if (r.ok) render(data);
      else {
        $("message").textContent = data.detail || `refused (${r.status})`;
        if (r.status === 409) await refresh();
      }
    } catch (err) {
      $("message").textContent = `the server did not answer (${err}); it will be tried again`;
    } finally {
      busy = false;
      document.body.dataset.busy = "no";
    }
  }

  async function refresh() {
    const r = await fetch(`/api/t/${token}`);
    if (r.ok) render(await r.json());
  }

  function play(action) {
    send("move", { version: state.version, action: action });
  }

  function playNumber(n) {
    const m = state.moves.find((x) => x.n === n);
    if (m) play(m.action);
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[0-9]$/.test(ev.key)) {
      typed += ev.key;
      clearTimeout(typedTimer);
      const n = Number(typed);
      // Play at once unless a longer number could still be meant.
      if (n * 10 > state.moves.length) { typed = ""; playNumber(n); }
      else typedTimer = setTimeout(() => { typed = ""; playNumber(n); }, 700);
    } else if (ev.key === "Enter" && typed) {
      clearTimeout(typedTimer);
      const n = Number(typed);
      typed = "";
      playNumber(n);
    } else if (ev.key === "u" && state.seat !== null) {
      // The button shows only when undo acts; the key asks anyway, and shows why not.
      send("undo", { version: state.version });
    } else if (ev.key === "b" && state.back) {
      send("back", { version: state.version });
    }
  });
  $("undo").addEventListener("click", () => send("undo", { version: state.version }));
  $("take").addEventListener("click", () => send("hand-over", { version: state.version, seat: state.hand_over }));
  $("back").addEventListener("click", () => send("back", { version: state.version }));

  function follow() {
    // The server ends a stream after a while; open it again from the version shown.
    const events = new EventSource(`/api/t/${token}/events?since=${state.version}`);
    events.onmessage = (ev) => {
      const p = JSON.parse(ev.data);
      if (p.version !== state.version) render(p);
    };
    events.onerror = () => {
      events.close();
      setTimeout(follow, 500);
    };
  }

  render(state, true);
  follow();
})();
