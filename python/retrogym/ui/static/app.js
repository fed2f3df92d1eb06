// retrogym Integration UI: the page. Talks to the server with fetch (JSON API, token in a header) and one WebSocket
// (binary screen frames, JSON scenario information). No libraries, no network access beyond the server.
"use strict";
const TOKEN = document.body.dataset.token;
const $ = (id) => document.getElementById(id);
let status = null;            // the last /api/status answer
let buttons = [];             // the system's buttons (joypad ids)
let held = 0;                 // bits of the buttons held
let plotData = [];            // [frame, cumulative reward]
let memPrev = null;
let lastValues = {};         // the variables' values of the last information message

// ---- messages and requests ----
function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = kind || "";
}

async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? "GET" : "POST"), headers: { "X-Token": TOKEN } };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let r;
  try { r = await fetch(path, opts); } catch (e) { throw new Error("the server does not answer: " + e.message); }
  let out;
  try { out = await r.json(); } catch (e) { out = { error: "HTTP " + r.status }; }
  if (!r.ok) { const err = new Error(out.error || ("HTTP " + r.status)); err.status = r.status; throw err; }
  return out;
}

// Runs a request; on 409 (would overwrite) asks the user, then runs it again with overwrite set.
async function act(what, fn) {
  try {
    const out = await fn(false);
    say(what + ": done" + (out && out.path ? " (" + out.path + ")" : ""), "ok");
    return out;
  } catch (e) {
    if (e.status === 409 && confirm(e.message + "\n\nReplace it?")) {
      try { const out = await fn(true); say(what + ": done" + (out && out.path ? " (" + out.path + ")" : ""), "ok"); return out; }
      catch (e2) { say(what + ": " + e2.message, "error"); return null; }
    }
    say(what + ": " + e.message, "error");
    return null;
  }
}

// ---- WebSocket: screen and live information ----
const screen = $("screen");
const ctx = screen.getContext("2d");
let ws = null;
function connect(takeover) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  sentBits = -1;
  ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(TOKEN)}${takeover ? "&takeover=1" : ""}`);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (ev) => {
    if (typeof ev.data === "string") { onJson(JSON.parse(ev.data)); return; }
    drawFrame(ev.data);
  };
  ws.onclose = () => { if (!$("busy")) say("the connection to the server closed; reload the page", "error"); };
}

function drawFrame(buf) {
  const head = new DataView(buf, 0, 12);
  const w = head.getUint16(4, true), h = head.getUint16(6, true);
  if (screen.width !== w || screen.height !== h) {
    screen.width = w; screen.height = h;
    screen.style.width = (w * 2) + "px"; screen.style.height = (h * 2) + "px";
  }
  const rgb = new Uint8Array(buf, 12);
  const img = ctx.createImageData(w, h);
  const px = img.data;
  for (let i = 0, j = 0; i < w * h; i++, j += 3) {
    px[i * 4] = rgb[j]; px[i * 4 + 1] = rgb[j + 1]; px[i * 4 + 2] = rgb[j + 2]; px[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}

function onJson(m) {
  if (m.type === "info") showInfo(m);
  else if (m.type === "error") say(m.message, "error");
  else if (m.type === "busy" || m.type === "taken") showBusy(m.message);
}

function showBusy(text) {
  if ($("busy")) return;
  const d = document.createElement("div");
  d.id = "busy"; d.className = "busy";
  d.innerHTML = `<div></div><button id="takeover">Use it here</button>`;
  d.firstChild.textContent = text;
  document.body.appendChild(d);
  $("takeover").onclick = () => { d.remove(); connect(true); refresh(); };
}

function showInfo(m) {
  $("info-reward").textContent = fmt(m.reward);
  $("info-total").textContent = fmt(m.total);
  $("info-done").textContent = m.done ? "yes" : "no";
  $("info-frame").textContent = m.frame;
  $("info-timestep").textContent = m.timestep;
  $("pause").textContent = m.paused ? "Resume" : "Pause";
  $("fast").classList.toggle("on", !!m.fast);
  $("movie-status").textContent = m.recording ? "recording " + m.recording : (m.playing ? "playing " + m.playing : "");
  if (plotData.length && m.frame < plotData[plotData.length - 1][0]) plotData = plotData.filter((p) => p[0] <= m.frame);
  plotData.push([m.frame, m.total]);
  if (plotData.length > 2000) plotData.splice(0, plotData.length - 2000);
  drawPlot();
  lastValues = m.values || {};
  for (const [name, value] of Object.entries(lastValues)) {
    const cell = document.querySelector(`#vars td.value[data-name="${CSS.escape(name)}"]`);
    if (cell && document.activeElement !== cell.firstChild) cell.firstChild.value = value;
  }
}
const fmt = (x) => (Math.round(x * 1000) / 1000).toString();

function drawPlot() {
  const c = $("plot"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  if (plotData.length < 2) return;
  const f0 = plotData[0][0], f1 = plotData[plotData.length - 1][0] || 1;
  let lo = Math.min(0, ...plotData.map((p) => p[1])), hi = Math.max(1, ...plotData.map((p) => p[1]));
  g.strokeStyle = "#fd6"; g.beginPath();
  plotData.forEach(([f, v], i) => {
    const x = (f - f0) / Math.max(1, f1 - f0) * (c.width - 4) + 2, y = c.height - 4 - (v - lo) / (hi - lo) * (c.height - 8);
    if (i) g.lineTo(x, y); else g.moveTo(x, y);
  });
  g.stroke();
  g.fillStyle = "#889"; g.fillText(fmt(hi), 2, 10); g.fillText(fmt(lo), 2, c.height - 2);
}

// ---- keys ----
const DEFAULT_KEYS = { UP: "ArrowUp", DOWN: "ArrowDown", LEFT: "ArrowLeft", RIGHT: "ArrowRight", A: "KeyX", B: "KeyZ",
  C: "KeyC", X: "KeyS", Y: "KeyA", Z: "KeyD", L: "KeyQ", R: "KeyW", START: "Enter", SELECT: "ShiftRight",
  MODE: "Tab", RESET: "F2", FIRE: "KeyX", LEFT_DIFFICULTY: "Digit1", RIGHT_DIFFICULTY: "Digit2", SELECT_: "" };
let keymap = {};
function loadKeys() {
  try { keymap = JSON.parse(localStorage.getItem("retrogym-keys") || "{}"); } catch (e) { keymap = {}; }
  for (const b of buttons) if (b && !(b in keymap)) keymap[b] = DEFAULT_KEYS[b] || "";
  showKeys();
}
function showKeys() {
  const box = $("keys"); box.innerHTML = "";
  buttons.forEach((b) => {
    if (!b) return;
    const s = document.createElement("span");
    const btn = document.createElement("button");
    btn.textContent = keymap[b] || "(none)"; btn.id = "key-" + b;
    btn.onclick = () => { btn.textContent = "press a key…"; rebinding = b; };
    s.append(b + " ", btn); box.appendChild(s);
  });
}
let rebinding = null;
let padBits = 0;              // buttons held on a gamepad (Gamepad API)
let sentBits = -1;
function sendButtons() {
  const bits = held | padBits;
  if (ws && ws.readyState === 1 && bits !== sentBits) { ws.send(JSON.stringify({ type: "buttons", bits })); sentBits = bits; }
}
// Gamepads with the standard mapping: face buttons, shoulders, select/start, the d-pad and the left stick.
const PAD = { 0: "B", 1: "A", 2: "Y", 3: "X", 4: "L", 5: "R", 8: "SELECT", 9: "START", 12: "UP", 13: "DOWN",
  14: "LEFT", 15: "RIGHT" };
function pollPads() {
  let bits = 0;
  const pads = navigator.getGamepads ? navigator.getGamepads() : [];
  for (const pad of pads) {
    if (!pad) continue;
    const press = (name) => { const i = buttons.indexOf(name); if (i >= 0) bits |= 1 << i; };
    pad.buttons.forEach((b, i) => { if (b.pressed && PAD[i]) press(PAD[i]); });
    if (pad.axes.length >= 2) {
      if (pad.axes[0] < -0.5) press("LEFT"); if (pad.axes[0] > 0.5) press("RIGHT");
      if (pad.axes[1] < -0.5) press("UP"); if (pad.axes[1] > 0.5) press("DOWN");
    }
  }
  if (bits !== padBits) { padBits = bits; sendButtons(); }
  requestAnimationFrame(pollPads);
}
window.addEventListener("gamepadconnected", (e) => say("gamepad connected: " + e.gamepad.id, "ok"));
requestAnimationFrame(pollPads);
function keyBits(code) {
  if (code === "NumpadEnter") code = "Enter";  // either Enter key is START
  let bits = 0;
  buttons.forEach((b, i) => { if (b && keymap[b] === code) bits |= 1 << i; });
  return bits;
}
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  if (rebinding) {
    keymap[rebinding] = e.code; rebinding = null;
    localStorage.setItem("retrogym-keys", JSON.stringify(keymap)); showKeys(); e.preventDefault(); return;
  }
  if (e.code === "Space") { control(status && status.session && !$("pause").textContent.startsWith("Resume") ? "pause" : "resume"); e.preventDefault(); return; }
  if (e.code === "Backspace") { control("rewind", { seconds: 1 }); e.preventDefault(); return; }
  const bits = keyBits(e.code);
  if (bits) { held |= bits; sendButtons(); e.preventDefault(); }
});
document.addEventListener("keyup", (e) => {
  const bits = keyBits(e.code);
  if (bits) { held &= ~bits; sendButtons(); e.preventDefault(); }
});
window.addEventListener("blur", () => { held = 0; sendButtons(); });
$("keys-default").onclick = () => { localStorage.removeItem("retrogym-keys"); keymap = {}; loadKeys(); };

// ---- controls ----
async function control(cmd, extra) {
  try { await api("api/control", Object.assign({ cmd }, extra || {})); }
  catch (e) { say(cmd + ": " + e.message, "error"); }
}
$("pause").onclick = () => control($("pause").textContent === "Pause" ? "pause" : "resume");
$("step").onclick = () => control("step");
$("advance").onclick = () => control("advance", { n: parseInt($("advance-n").value, 10) || 1 });
$("fast").onclick = () => control("fast", { on: !$("fast").classList.contains("on") });
$("rewind").onclick = () => control("rewind", { seconds: 1 });
$("reset").onclick = () => { plotData = []; control("reset"); };
$("poweron").onclick = () => { plotData = []; control("power_on"); };

// ---- game: integrate, open ----
$("rom-file").onchange = async () => {
  const f = $("rom-file").files[0];
  if (!f) return;
  try { $("rom-name").value = (await api("api/propose?filename=" + encodeURIComponent(f.name))).name; }
  catch (e) { say(e.message, "error"); }
};
$("integrate").onclick = () => act("integrate", async (overwrite) => {
  const f = $("rom-file").files[0];
  let out;
  if (f) {
    const fd = new FormData();
    fd.append("rom", f, f.name); fd.append("name", $("rom-name").value); if (overwrite) fd.append("overwrite", "1");
    out = await api("api/integrate", fd);
  } else {
    out = await api("api/integrate", { name: $("rom-name").value, overwrite });
  }
  plotData = []; applyStatus(out); return out;
});
$("open-game").onclick = () => act("open", async () => {
  const out = await api("api/open", { game: $("game-select").value }); plotData = []; applyStatus(out); return out;
});

// ---- states ----
$("save-state").onclick = () => act("save state", async (overwrite) => {
  const out = await api("api/state/save", { name: $("state-name").value, overwrite, default: $("state-default").checked });
  await refresh(); return out;
});
$("load-state").onclick = () => act("load state", async () => {
  const out = await api("api/state/load", { name: $("state-list").value }); plotData = []; await refresh(); return out;
});
$("default-state").onclick = () => act("default state", async () => {
  const out = await api("api/state/default", { name: $("state-list").value }); await refresh(); return out;
});
$("state-file").onchange = () => act("load state file", async (overwrite) => {
  const f = $("state-file").files[0];
  const fd = new FormData(); fd.append("state", f, f.name);
  return api("api/state/upload", fd);
});

// ---- variables ----
function showVars(vars) {
  const body = document.querySelector("#vars tbody"); body.innerHTML = "";
  const names = Object.keys(vars).sort();
  for (const name of names) {
    const v = vars[name];
    const tr = document.createElement("tr");
    tr.innerHTML = `<td></td><td></td><td></td><td class="value"><input size="8"></td><td><button>✕</button></td>`;
    tr.children[0].textContent = name;
    tr.children[1].textContent = "0x" + v.address.toString(16);
    tr.children[2].textContent = v.type;
    tr.children[3].dataset.name = name;
    const inp = tr.children[3].firstChild;
    if (name in lastValues) inp.value = lastValues[name];
    inp.onchange = () => act("set " + name, () => api("api/variable", { name, value: parseInt(inp.value, 10) }));
    tr.children[4].firstChild.onclick = () => act("remove " + name, async () => {
      const out = await api("api/variable", { name, remove: true }); showVars(out.variables); return out; });
    tr.children[0].onclick = () => { $("var-name").value = name; $("var-address").value = "0x" + v.address.toString(16); $("var-type").value = v.type; };
    body.appendChild(tr);
  }
  for (const sel of document.querySelectorAll("select.varsel")) fillVarSelect(sel, sel.value);
}
function parseNum(s) { s = String(s).trim(); return /^0x/i.test(s) ? parseInt(s, 16) : parseInt(s, 10); }
$("var-add").onclick = () => act("variable", async () => {
  const out = await api("api/variable", { name: $("var-name").value.trim(), address: parseNum($("var-address").value),
    type: $("var-type").value.trim() });
  lastValues = out.values; showVars(out.variables); return out;
});
$("save-data").onclick = () => act("save data.json", async () => { const out = await api("api/data/save", {}); await refresh(); validate(); return out; });

// ---- scenario editor ----
const OPS = ["", "equal", "not-equal", "less-than", "greater-than", "less-or-equal", "greater-or-equal", "nonzero",
  "zero", "positive", "negative", "sign"];
function varNames() { return status && status.session ? Object.keys(status.session.variables).sort() : []; }
function fillVarSelect(sel, value) {
  sel.innerHTML = "";
  for (const n of new Set([...varNames(), value].filter(Boolean))) { const o = document.createElement("option"); o.textContent = n; sel.appendChild(o); }
  if (value) sel.value = value;
}
function row(table, cells) {
  const tr = document.createElement("tr");
  for (const c of cells) { const td = document.createElement("td"); td.appendChild(c); tr.appendChild(td); }
  const x = document.createElement("button"); x.textContent = "✕"; x.onclick = () => tr.remove();
  const td = document.createElement("td"); td.appendChild(x); tr.appendChild(td);
  document.querySelector(table + " tbody").appendChild(tr);
}
function input(value, size) { const i = document.createElement("input"); i.size = size || 6; i.value = value ?? ""; return i; }
function varSelect(value) { const s = document.createElement("select"); s.className = "varsel"; fillVarSelect(s, value); return s; }
function opSelect(value) {
  const s = document.createElement("select");
  for (const op of OPS) { const o = document.createElement("option"); o.value = op; o.textContent = op || "(delta)"; s.appendChild(o); }
  s.value = value || ""; return s;
}
function measSelect(value) {
  const s = document.createElement("select");
  for (const m of ["", "delta", "absolute"]) { const o = document.createElement("option"); o.value = m; o.textContent = m || "(default)"; s.appendChild(o); }
  s.value = value || ""; return s;
}
function addReward(name, spec) {
  spec = spec || {};
  row("#reward-rows", [varSelect(name), input(spec.reward ?? 1), input(spec.penalty ?? ""), opSelect(spec.op),
    input(spec.reference ?? ""), measSelect(spec.measurement)]);
}
function addDone(name, spec) {
  spec = spec || {};
  row("#done-rows", [varSelect(name), opSelect(spec.op), input(spec.reference ?? ""), measSelect(spec.measurement)]);
}
$("reward-add").onclick = () => addReward();
$("done-add").onclick = () => addDone(null, { op: "zero" });
function showScenario(sc) {
  document.querySelector("#reward-rows tbody").innerHTML = "";
  document.querySelector("#done-rows tbody").innerHTML = "";
  for (const [n, s] of Object.entries(((sc.reward || {}).variables) || {})) addReward(n, s);
  for (const [n, s] of Object.entries(((sc.done || {}).variables) || {})) addDone(n, s);
  $("done-condition").value = (sc.done || {}).condition || "";
  $("actions").value = sc.actions ? JSON.stringify(sc.actions) : "";
  $("done-nodes").value = (sc.done || {}).nodes ? JSON.stringify(sc.done.nodes) : "";
  showScenario.base = sc;
}
function collectScenario() {
  const sc = JSON.parse(JSON.stringify(showScenario.base || {}));
  sc.reward = Object.assign({}, sc.reward, { variables: {} });
  sc.done = Object.assign({}, sc.done, { variables: {} });
  for (const tr of document.querySelectorAll("#reward-rows tbody tr")) {
    const [n, r, p, op, ref, meas] = [...tr.querySelectorAll("select, input")].map((e) => e.value);
    const spec = {};
    if (r !== "") spec.reward = Number(r);
    if (p !== "") spec.penalty = Number(p);
    if (op) spec.op = op;
    if (ref !== "") spec.reference = Number(ref);
    if (meas) spec.measurement = meas;
    sc.reward.variables[n] = spec;
  }
  for (const tr of document.querySelectorAll("#done-rows tbody tr")) {
    const [n, op, ref, meas] = [...tr.querySelectorAll("select, input")].map((e) => e.value);
    const spec = {};
    if (op) spec.op = op;
    if (ref !== "") spec.reference = Number(ref);
    if (meas) spec.measurement = meas;
    sc.done.variables[n] = spec;
  }
  const cond = $("done-condition").value;
  if (cond) sc.done.condition = cond; else delete sc.done.condition;
  const a = $("actions").value.trim();
  if (a) sc.actions = JSON.parse(a); else delete sc.actions;
  const nodes = $("done-nodes").value.trim();
  if (nodes) {
    try { sc.done.nodes = JSON.parse(nodes); } catch (e) { throw new Error("done nodes: not valid JSON (" + e.message + ")"); }
  } else delete sc.done.nodes;
  return sc;
}
$("save-scenario").onclick = () => act("save scenario.json", async () => {
  let sc;
  try { sc = collectScenario(); } catch (e) {
    throw new Error(e.message.startsWith("done nodes") ? e.message : "actions: not valid JSON (" + e.message + ")");
  }
  const out = await api("api/scenario/save", { scenario: sc }); plotData = []; await refresh(); validate(); return out;
});

// ---- validate ----
async function validate() {
  try {
    const out = await api("api/validate");
    $("validate-folder").textContent = out.folder;
    const ul = $("findings"); ul.innerHTML = "";
    if (!out.findings.length) { const li = document.createElement("li"); li.textContent = "no problems found"; ul.appendChild(li); }
    for (const f of out.findings) {
      const li = document.createElement("li"); li.className = f.severity;
      li.textContent = `${f.severity}: ${f.file}: ${f.message}`; ul.appendChild(li);
    }
  } catch (e) { say("validate: " + e.message, "error"); }
}
$("validate").onclick = validate;

// ---- movies ----
async function movie(cmd, extra) {
  return act("movie " + cmd, async (overwrite) => {
    const out = await api("api/movie", Object.assign({ cmd, overwrite }, extra || {}));
    fillSelect($("movie-list"), out.movies, out.path ? out.path.split("/").pop() : $("movie-list").value);
    return out;
  });
}
$("movie-record").onclick = () => { plotData = []; movie("record"); };
$("movie-stop").onclick = () => movie("stop");
$("movie-play").onclick = () => { plotData = []; movie("play", { name: $("movie-list").value }); };
$("movie-export").onclick = () => { say("exporting…"); movie("export", { name: $("movie-list").value }); };

// ---- memory search ----
function showSearches(list) {
  const box = $("search-body"); box.innerHTML = "";
  if (list === null) { box.textContent = "this retrogym has no memory search"; return; }
  for (const sr of list || []) {
    const d = document.createElement("div"); d.className = "search";
    const h = document.createElement("div");
    h.innerHTML = `<b></b> <span></span> <button>✕</button>`;
    h.children[0].textContent = sr.name;
    h.children[1].textContent = `${sr.count} result${sr.count === 1 ? "" : "s"} after ${sr.rounds} round${sr.rounds === 1 ? "" : "s"}` + (sr.unique ? ` (unique: 0x${sr.unique.address.toString(16)} ${sr.unique.type})` : "");
    h.children[2].onclick = () => act("remove search", async () => showSearches((await api("api/search", { name: sr.name, remove: true })).searches));
    d.appendChild(h);
    const t = document.createElement("table"); t.className = "results";
    for (const r of sr.results) {
      const tr = document.createElement("tr");
      const scale = (r.mult !== 1 ? ` ×1/${r.mult}` : "") + (r.div !== 1 ? ` ×${r.div}` : "") + (r.bias ? ` ${r.bias > 0 ? "−" : "+"}${Math.abs(r.bias)}` : "");
      tr.innerHTML = `<td class="addr"></td><td></td>`;
      tr.children[0].textContent = "0x" + r.address.toString(16) + scale;
      for (const type of r.types) {  // each type a button: make the variable with that type
        const b = document.createElement("button");
        b.className = "type"; b.textContent = type; b.title = "make variable " + sr.name + " at 0x" + r.address.toString(16) + " as " + type;
        b.onclick = () => act("make variable " + sr.name, async () => {
          const out = await api("api/variable", { name: sr.name, address: r.address, type });
          lastValues = out.values; showVars(out.variables); return out;
        });
        tr.children[1].appendChild(b);
      }
      t.appendChild(tr);
    }
    if (sr.count > sr.results.length) { const tr = document.createElement("tr"); tr.innerHTML = `<td colspan="2">…</td>`; t.appendChild(tr); }
    d.appendChild(t); box.appendChild(d);
  }
}
for (const kind of ["is", "increased", "decreased", "increased_by", "decreased_by", "changed", "unchanged"]) {
  $("search-" + kind).onclick = () => act("search " + kind.replace("_", " "), async () => {
    const out = await api("api/search", { name: $("search-name").value.trim(), kind, value: parseNum($("search-value").value) || 0 });
    showSearches(out.searches); return out;
  });
}
async function loadSearches() {
  try { showSearches((await api("api/searches")).searches); } catch (e) { /* no game yet */ }
}

// ---- memory ----
let memBlocks = [];
async function loadMemory() {
  if (!status || !status.session) return;
  try { memBlocks = (await api("api/memory")).blocks; } catch (e) { return; }
  const sel = $("mem-block");
  if (sel.options.length !== memBlocks.length) {
    sel.innerHTML = "";
    memBlocks.forEach((b, i) => { const o = document.createElement("option"); o.value = i; o.textContent = `0x${b.base.toString(16)} (${b.size} bytes)`; sel.appendChild(o); });
  }
  showHex();
}
function showHex() {
  const b = memBlocks[parseInt($("mem-block").value || "0", 10)];
  if (!b) return;
  const bytes = Uint8Array.from(atob(b.data), (c) => c.charCodeAt(0));
  let off = parseNum($("mem-offset").value) || 0;
  off = Math.max(0, Math.min(off - (off % 16), Math.max(0, bytes.length - 256)));
  const t = $("hex"); t.innerHTML = "";
  for (let r = 0; r < 16 && off + r * 16 < bytes.length; r++) {
    const tr = document.createElement("tr");
    const a = document.createElement("td"); a.className = "addr"; a.textContent = (b.base + off + r * 16).toString(16).padStart(6, "0"); tr.appendChild(a);
    for (let c = 0; c < 16 && off + r * 16 + c < bytes.length; c++) {
      const i = off + r * 16 + c, td = document.createElement("td");
      td.textContent = bytes[i].toString(16).padStart(2, "0");
      if (memPrev && memPrev.base === b.base && memPrev.bytes[i] !== bytes[i]) td.className = "changed";
      td.onclick = () => {
        const v = prompt(`New value for 0x${(b.base + i).toString(16)} (hex)`, td.textContent);
        if (v === null) return;
        const n = parseInt(v, 16);
        if (!(n >= 0 && n <= 255)) { say("a byte is 00 to ff", "error"); return; }
        act("write memory", () => api("api/memory", { address: b.base + i, values: [n] })).then(loadMemory);
      };
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  memPrev = { base: b.base, bytes };
}
$("mem-block").onchange = showHex;
$("mem-offset").onchange = showHex;
$("mem-prev").onclick = () => { $("mem-offset").value = "0x" + Math.max(0, (parseNum($("mem-offset").value) || 0) - 256).toString(16); showHex(); };
$("mem-next").onclick = () => { $("mem-offset").value = "0x" + ((parseNum($("mem-offset").value) || 0) + 256).toString(16); showHex(); };
setInterval(() => { if ($("mem-live").checked) loadMemory(); }, 500);

// ---- status ----
function fillSelect(sel, items, value) {
  sel.innerHTML = "";
  for (const it of items) { const o = document.createElement("option"); o.textContent = it; sel.appendChild(o); }
  if (value && items.includes(value)) sel.value = value;
}
function applyStatus(st) {
  status = st;
  fillSelect($("game-select"), st.games, st.session && st.session.game);
  const p = $("pending");
  if (st.pending_rom) {
    p.textContent = `ROM ${st.pending_rom.filename} (${st.pending_rom.size} bytes) is not integrated yet: check the name and press Integrate.`;
    if (!$("rom-name").value) $("rom-name").value = st.pending_rom.proposal || "";
  } else p.textContent = "";
  const s = st.session;
  if (!s) { $("title").textContent = "no game open"; return; }
  $("title").textContent = s.game + " (" + s.system + ")";
  $("info-state").textContent = s.state || "(power-on)";
  fillSelect($("state-list"), s.states, s.state);
  fillSelect($("movie-list"), s.movies || [], $("movie-list").value);
  $("default-name").textContent = s.default_state ? "default: " + s.default_state : "no default state";
  if (JSON.stringify(buttons) !== JSON.stringify(s.buttons)) { buttons = s.buttons; loadKeys(); }
  showVars(s.variables);
  showScenario(s.scenario || {});
  showInfo(s);
  loadSearches();
}
async function refresh() {
  try { applyStatus(await api("api/status")); } catch (e) { say(e.message, "error"); }
}
window.retrogymUI = { refresh, status: () => status };
refresh().then(() => { connect(false); loadMemory(); loadSearches(); screen.focus(); });
