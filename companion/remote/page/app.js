// The phone's page: join with the box's code, then show each frame the box pushes and send taps back.
// Everything the box checks again: this page only offers what the frame asks.
const $ = (id) => document.getElementById(id);
const FACES = { d6: 6, d8: 8 };
const state = { csrf: "", ws: null, frame: -1, shown: -1, url: "", dice: [], chosen: [], retry: 0 };
window.companion = state;

function view(name) {
  $("join-view").hidden = name !== "join";
  $("play-view").hidden = name !== "play";
}

async function start() {
  const fromLink = location.pathname.startsWith("/J/") ? location.pathname.slice(3) : location.hash.slice(1);
  const code = decodeURIComponent(fromLink).replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  if (code) $("code").value = code.toUpperCase();
  const r = await fetch("/session", { credentials: "same-origin" });
  if (r.ok) {
    const me = await r.json();
    connect(me);
  } else {
    view("join");
  }
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("join-error").textContent = "";
  const r = await fetch("/join", {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: $("code").value.trim(), seat: $("seat").value }),
  });
  const answer = await r.json().catch(() => ({ error: "the box did not answer" }));
  if (!r.ok) { $("join-error").textContent = answer.error || "refused"; return; }
  history.replaceState(null, "", "/");
  connect(answer);
});

function connect(me) {
  state.csrf = me.csrf;
  $("me").textContent = me.name;
  view("play");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?csrf=${encodeURIComponent(state.csrf)}`);
  ws.binaryType = "arraybuffer";
  state.ws = ws;
  ws.onopen = () => { state.retry = 0; };
  ws.onmessage = (event) => (typeof event.data === "string" ? onText(event.data) : onPicture(event.data));
  ws.onclose = (event) => {
    state.ws = null;
    if (event.code === 4001 || event.code === 1008) {
      view("join");
      $("join-error").textContent = event.code === 4001 ? "The box has a new code: enter it." : "Refused by the box.";
      return;
    }
    if (state.retry < 8) {
      state.retry += 1;
      setTimeout(() => start(), 500 * state.retry);
    } else {
      $("message").textContent = "Lost the box: reload the page.";
    }
  };
}

function onPicture(buffer) {
  const frame = Number(new DataView(buffer).getBigUint64(0));
  const url = URL.createObjectURL(new Blob([buffer.slice(8)], { type: "image/png" }));
  const img = $("board");
  img.onload = () => {
    if (state.url) URL.revokeObjectURL(state.url);
    state.url = url;
    state.shown = frame;
    img.dataset.frame = String(frame);
  };
  img.src = url;
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify({ ...message, frame: state.frame }));
}

function onText(text) {
  const m = JSON.parse(text);
  if (m.t === "refused") { $("message").textContent = m.why; return; }
  if (m.t !== "state") return;
  state.frame = m.frame;
  $("game").textContent = m.game;
  $("status").textContent = m.status;
  $("request").textContent = m.menu ? `The box's menu is open: ${m.menu}` : (m.question || m.request);
  $("message").textContent = m.message;
  options(m);
  dice(m.dice);
  $("bid-form").hidden = m.bid === null;
  if (m.bid !== null) $("bid").placeholder = `${m.bid} or more`; // the game says why a bid is refused
  $("question").hidden = !m.question;
  $("question-text").textContent = m.question;
  $("undo").hidden = !m.undo;
  document.body.dataset.frame = String(m.frame);
}

function options(m) {
  const list = $("options");
  const spots = $("spots");
  list.replaceChildren();
  spots.replaceChildren();
  const [w, h] = m.size;
  const key = (o) => (o.rect ? o.rect.join() : "");
  const places = new Map();
  for (const o of m.options) if (o.rect) places.set(key(o), (places.get(key(o)) || 0) + 1);
  m.options.forEach((option, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = option.label;
    b.dataset.option = String(i);
    b.addEventListener("click", () => send({ t: "pick", option: i }));
    list.append(b);
    if (option.rect && places.get(key(option)) === 1) { // a place tapped picks its option (when it is the only one there)
      const [x, y, rw, rh] = option.rect;
      const s = document.createElement("button");
      s.type = "button";
      s.className = "spot";
      s.title = option.label;
      s.setAttribute("aria-label", option.label);
      s.dataset.option = String(i);
      Object.assign(s.style, { left: `${(100 * x) / w}%`, top: `${(100 * y) / h}%`,
        width: `${(100 * rw) / w}%`, height: `${(100 * rh) / h}%` });
      s.addEventListener("click", () => send({ t: "pick", option: i }));
      spots.append(s);
    }
  });
}

function dice(kinds) {
  const same = kinds.join() === state.dice.join();
  state.dice = kinds;
  if (!same) state.chosen = [];
  $("dice").hidden = kinds.length === 0;
  const faces = $("faces");
  faces.replaceChildren();
  for (const kind of [...new Set(kinds)]) {
    const label = document.createElement("p");
    label.className = "kind";
    label.textContent = kind.toUpperCase();
    faces.append(label);
    for (let v = 1; v <= FACES[kind]; v += 1) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = String(v);
      b.dataset.die = `${kind}-${v}`;
      b.addEventListener("click", () => tapFace(kind, v));
      faces.append(b);
    }
  }
  showChosen();
}

function tapFace(kind, value) {
  const wanted = state.dice.filter((k) => k === kind).length;
  const have = state.chosen.filter(([k]) => k === kind).length;
  if (have < wanted) state.chosen.push([kind, value]);
  showChosen();
}

function showChosen() {
  $("dice-so-far").textContent = state.chosen.map(([k, v]) => `${k.toUpperCase()}=${v}`).join("  ");
}

$("dice-enter").addEventListener("click", () => {
  if (state.chosen.length) send({ t: "dice", dice: state.chosen });
  state.chosen = [];
  showChosen();
});
$("dice-clear").addEventListener("click", () => { state.chosen = []; showChosen(); });
$("bid-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const amount = Number.parseInt($("bid").value, 10);
  if (Number.isInteger(amount)) send({ t: "bid", amount });
  $("bid").value = "";
});
$("yes").addEventListener("click", () => send({ t: "answer", yes: true }));
$("no").addEventListener("click", () => send({ t: "answer", yes: false }));
$("undo").addEventListener("click", () => send({ t: "undo" }));

start();
