// A replay: a match record stepped through move by move (forward, back, jump), every card
// open; the record comes from a file, or from a finished table of this server (?table=ID).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let record = null;
  let ply = 0;
  let total = 0;

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
