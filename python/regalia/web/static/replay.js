// A replay: a match record stepped through move by move (forward, back, jump), every card
// open, and at its last move how the game ended; the record comes from a file, or from a
// finished table of this server (?table=ID). The server walks the record (regalia.table.Replay).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let record = null;
  let ply = 0;
  let total = 0;

  // "Won by seat 0 (random), target reached; points 7 : 4": how the game ended, in words.
  function ending(outcome, agents) {
    const who = outcome.winners.map((s) => `seat ${s} (${agents[s]})`).join(" and ");
    const won = outcome.winners.length === 0 ? "A draw" : `Won by ${who}`;
    const tie = outcome.tie_break === null ? "" : `, decided by the tie-break (${outcome.tie_break.replaceAll("_", " ")})`;
    return `${won}: ${outcome.reason.replaceAll("_", " ")}${tie}; points ${outcome.scores.join(" : ")}`;
  }

  async function show(n) {
    if (record === null) return;
    const r = await fetch("/api/replay", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record: record, ply: Math.max(0, n) }),
    });
    const data = await r.json();
    if (!r.ok) { $("message").textContent = typeof data.detail === "string" ? data.detail : "not a match record"; return; }
    $("message").textContent = "";
    ply = data.ply;
    total = data.total;
    $("picture").innerHTML = data.picture;
    $("ply").max = total;
    $("ply").value = ply;
    $("where").textContent = `move ${ply} of ${total}`;
    const log = $("log");
    log.replaceChildren();
    data.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.textContent = m.seat === null ? `chance: ${m.name}` : `seat ${m.seat}: ${m.name}`;
      li.value = i + 1;
      log.append(li);
    });
    $("outcome").textContent = data.outcome === null ? "" : ending(data.outcome, data.agents);
    document.body.dataset.over = String(data.outcome !== null);
    document.body.dataset.ply = ply;
  }

  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (f) { record = await f.text(); show(0); }
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(total));
  $("ply").addEventListener("input", () => show(Number($("ply").value)));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") show(ply - 1);
    else if (ev.key === "ArrowRight") show(ply + 1);
  });

  const table = new URLSearchParams(location.search).get("table");
  if (table) {
    fetch(`/api/tables/${encodeURIComponent(table)}/record`).then(async (r) => {
      const data = await r.json();
      if (!r.ok) { $("message").textContent = data.detail; return; }
      record = JSON.stringify(data);
      show(0);
    });
  }
})();
