// The lobby: a new table (the game, its options from their declarations, the seats, a
// seed), the private links of a table just started, and the tables kept on this server.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const games = JSON.parse($("games").textContent);
  const agents = JSON.parse($("agents").textContent);
  const seatKinds = ["human", ...agents];

  function option(o) {
    const label = document.createElement("label");
    let input;
    const a = o.allowed;
    if (a.type === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(o.default);
    } else if (a.type === "choice") {
      input = document.createElement("select");
      for (const c of a.choices) input.append(new Option(c, c, false, c === o.default));
    } else {
      input = document.createElement("input");
      if (a.type === "integer") {
        input.type = "number";
        input.min = a.min;
        input.max = a.max;
      }
      input.value = o.default === null ? "" : Array.isArray(o.default) ? o.default.join(",") : o.default;
      if (o.default === null) input.placeholder = "depends on the others";
    }
    input.name = o.name;
    input.dataset.kind = a.type;
    label.append(`${o.name} `, input);
    const help = document.createElement("span");
    help.className = "help";
    help.textContent = o.help;
    label.append(help);
    return label;
  }

  function current() {
    return games.find((g) => g.name === $("game").value);
  }

  function seats(n) {
    const box = $("seats");
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (let i = 0; i < n; i++) {
      const label = document.createElement("label");
      const select = document.createElement("select");
      select.name = `seat${i}`;
      for (const k of seatKinds) select.append(new Option(k === "human" ? "a person" : k, k, false, k === (i === 0 ? "human" : "best")));
      const extra = document.createElement("input");
      extra.name = `seat${i}-options`;
      extra.placeholder = "options, e.g. iterations=500";
      extra.size = 22;
      label.append(`seat ${i} `, select, " ", extra);
      box.append(label);
    }
  }

  function showGame() {
    const g = current();
    $("rules").href = `/rules/${g.name}`;
    const box = $("options");
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (const o of g.options) if (o.name !== "chance" && o.allowed.type !== "data") box.append(option(o));
    const players = box.querySelector("[name=players]");
    seats(Number(players.value));
    players.addEventListener("change", () => seats(Number(players.value)));
  }

  function value(input) {
    const kind = input.dataset.kind;
    if (kind === "boolean") return input.checked;
    if (input.value === "") return null;
    if (kind === "integer") return Number(input.value);
    if (kind === "integer_list") return input.value.split(",").map((x) => Number(x.trim()));
    return input.value;
  }

  function request(bots) {
    const options = {};
    for (const input of $("options").querySelectorAll("input, select")) {
      const v = value(input);
      if (v !== null) options[input.name] = v;
    }
    const chosen = [];
    for (const label of $("seats").querySelectorAll("label")) {
      const [select, extra] = label.querySelectorAll("select, input");
      let spec = bots && select.value === "human" ? "best" : select.value;
      const more = extra.value.trim().split(/[\s,]+/).filter(Boolean);
      if (spec !== "human" && more.length) spec += ":" + more.join(":");
      chosen.push(spec);
    }
    const body = { game: current().name, options: options, seats: chosen };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if (!bots && $("hot-seat").checked && chosen.filter((s) => s === "human").length > 1) body.hot_seat = true;
    return body;
  }

  async function start(bots) {
    $("message").textContent = "";
    const r = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request(bots)),
    });
    const data = await r.json();
    if (!r.ok) {
      $("message").textContent = typeof data.detail === "string" ? data.detail : data.detail.map((d) => d.msg).join("; ");
      return;
    }
    if (data.links.length === 1) { location.href = data.links[0].url; return; }
    showLinks(data.links);
    listTables();
  }

  function showLinks(links) {
    const box = $("started");
    box.replaceChildren();
    const p = document.createElement("p");
    p.textContent = "Each person opens their own private link (on any machine that reaches this server):";
    box.append(p);
    const ul = document.createElement("ul");
    for (const l of links) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = l.url;
      a.textContent = l.url;
      a.target = "_blank";
      li.append(l.shared ? "the shared screen: " : l.seat === null ? "watch: " : `seat ${l.seat}: `, a);
      ul.append(li);
    }
    box.append(ul);
  }

  async function listTables() {
    const r = await fetch("/api/tables");
    if (!r.ok) return;
    const ul = $("tables");
    ul.replaceChildren();
    for (const t of await r.json()) {
      const li = document.createElement("li");
      li.append(`${t.game}, ${t.agents.join(" v ")}, ${t.moves} moves${t.over ? ", over" : ""}: `);
      for (const l of t.links) {
        const a = document.createElement("a");
        a.href = l.url;
        a.textContent = l.shared ? "shared screen" : l.seat === null ? "watch" : `seat ${l.seat}`;
        li.append(a, " ");
      }
      if (t.over) {
        const a = document.createElement("a");
        a.href = `/replay?table=${encodeURIComponent(t.id)}`;
        a.textContent = "replay";
        li.append(a);
      }
      ul.append(li);
    }
  }

  for (const g of games) $("game").append(new Option(g.title, g.name));
  $("game").addEventListener("change", showGame);
  $("new-table").addEventListener("submit", (ev) => { ev.preventDefault(); start(false); });
  $("watch").addEventListener("click", () => start(true));
  $("resume").addEventListener("click", async () => {
    const r = await fetch("/api/resume", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: $("save-name").value }),
    });
    const data = await r.json();
    if (!r.ok) { $("message").textContent = typeof data.detail === "string" ? data.detail : "a save's name, please"; return; }
    if (data.links.length === 1) location.href = data.links[0].url;
    else showLinks(data.links);
  });
  showGame();
  listTables();
})();
