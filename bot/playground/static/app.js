// The playground's page: shows what one pretend person sees and acts as them. Plain script, no build
// step, nothing fetched from elsewhere. Everything a player typed (names above all) goes into the page
// as text (textContent), never as HTML: see text() and markdown() below.
"use strict";

const $ = (id) => document.getElementById(id);
const page = { me: null, state: null, channel: null, commands: [], locale: "en-US", labels: {},
               chosen: null, drawn: new Map(), seen: new Map(), loading: false, again: false,
               shown: null, following: true, updates: 0 };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function label(key) { return page.labels[key] || key; }

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function act(request) {
  $("status").textContent = "";
  return api("/api/act", { as: page.me, ...request }).catch((error) => { $("status").textContent = error.message; });
}

// ---- the bot's markdown, on escaped text ---------------------------------------------------------
function inline(parent, source) {
  const pattern = /(<a?:(\w+):(\d+)>)|(<@[!&]?(\d+)>)|(<#(\d+)>)|(<t:(-?\d+)(?::([tTdDfFR]))?>)|(\*\*([^*]+)\*\*)|(__([^_]+)__)|(\*([^*\s][^*]*)\*)|(~~([^~]+)~~)|(`([^`]+)`)|(\[([^\]]+)\]\(([^)\s]+)\))/g;
  let last = 0;
  for (const m of source.matchAll(pattern)) {
    if (m.index > last) parent.append(source.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) {
      const img = el("img", "emoji");
      img.src = "/emojis/" + m[3]; img.alt = ":" + m[2] + ":"; img.title = m[2];
      parent.append(img);
    } else if (m[4]) parent.append(el("span", "mention", "@" + (page.state.names[m[5]] || "unknown")));
    else if (m[6]) parent.append(el("span", "mention", "#" + (page.state.names[m[7]] || "unknown")));
    else if (m[8]) parent.append(el("span", "time-mark", timestamp(Number(m[9]), m[10] || "f")));
    else if (m[11]) inline(parent.appendChild(el("strong")), m[12]);
    else if (m[13]) inline(parent.appendChild(el("u")), m[14]);
    else if (m[15]) inline(parent.appendChild(el("em")), m[16]);
    else if (m[17]) inline(parent.appendChild(el("s")), m[18]);
    else if (m[19]) parent.append(el("code", "", m[20]));
    else if (m[21]) {
      const link = el("a", "", m[22]);
      if (/^https?:/.test(m[23])) { link.href = m[23]; link.target = "_blank"; link.rel = "noopener noreferrer"; }
      parent.append(link);
    }
  }
  if (last < source.length) parent.append(source.slice(last));
}

function markdown(source) {
  const box = el("div", "content");
  const lines = String(source || "").split("\n");
  lines.forEach((line, i) => {
    let holder = box;
    let m;
    if ((m = /^-# (.*)$/.exec(line))) { holder = box.appendChild(el("span", "subtext")); line = m[1]; }
    else if ((m = /^>>?>? ?(.*)$/.exec(line))) { holder = box.appendChild(el("blockquote")); line = m[1]; }
    else if ((m = /^(#{1,3}) (.*)$/.exec(line))) { holder = box.appendChild(el("h" + m[1].length)); line = m[2]; }
    inline(holder, line);
    if (i < lines.length - 1 && holder === box) box.append("\n");
  });
  return box;
}

function timestamp(seconds, style) {
  const when = new Date(seconds * 1000);
  if (style === "R") {
    const left = Math.round((when - Date.now()) / 1000);
    const format = new Intl.RelativeTimeFormat(page.locale, { numeric: "auto" });
    return Math.abs(left) < 90 ? format.format(left, "second") : format.format(Math.round(left / 60), "minute");
  }
  return style === "t" || style === "T" ? when.toLocaleTimeString(page.locale) : when.toLocaleString(page.locale);
}

// ---- messages ------------------------------------------------------------------------------------
function emojiNode(emoji) {
  if (!emoji) return null;
  if (emoji.id) { const img = el("img", "emoji"); img.src = "/emojis/" + emoji.id; img.alt = emoji.name || ""; return img; }
  return document.createTextNode((emoji.name || "") + " ");
}

function drawEmbed(embed) {
  const box = el("div", "embed");
  if (embed.color !== undefined && embed.color !== null) box.style.borderLeftColor = "#" + Number(embed.color).toString(16).padStart(6, "0");
  if (embed.thumbnail && embed.thumbnail.url) { const t = el("img", "embed-thumbnail"); t.src = embed.thumbnail.url; box.append(t); }
  if (embed.author && embed.author.name) box.append(el("div", "embed-author", embed.author.name));
  if (embed.title) { const t = el("div", "embed-title"); inline(t, embed.title); box.append(t); }
  if (embed.description) box.append(markdown(embed.description));
  if (embed.fields && embed.fields.length) {
    const fields = box.appendChild(el("div", "embed-fields"));
    for (const field of embed.fields) {
      const f = fields.appendChild(el("div", field.inline ? "embed-field" : "embed-field wide"));
      const name = f.appendChild(el("div", "embed-field-name")); inline(name, field.name || "");
      f.append(markdown(field.value));
    }
  }
  if (embed.image && embed.image.url) { const i = el("img", "embed-image"); i.src = embed.image.url; i.alt = ""; box.append(i); }
  if (embed.footer && embed.footer.text) box.append(el("div", "embed-footer", embed.footer.text));
  return box;
}

function drawComponents(message, components) {
  const box = el("div", "components");
  for (const row of components) {
    const line = box.appendChild(el("div", "row"));
    for (const c of row.type === 1 ? row.components || [] : [row]) {
      if (c.type === 2) {
        const button = el("button", "style-" + (c.style || 1));
        const emoji = emojiNode(c.emoji);
        if (emoji) button.append(emoji);
        button.append(c.label || "");
        button.disabled = !!c.disabled;
        button.dataset.customId = c.custom_id || "";
        if (c.url) button.onclick = () => window.open(c.url, "_blank", "noopener");
        else button.onclick = () => act({ kind: "button", message: message.id, custom_id: c.custom_id });
        line.append(button);
      } else if (c.type === 3) {
        line.append(drawSelect(message, c));
      }
    }
  }
  return box;
}

function drawSelect(message, c) {
  const wrap = el("span", "select");
  const select = el("select");
  select.dataset.customId = c.custom_id;
  select.disabled = !!c.disabled;
  const many = (c.max_values || 1) > 1;
  if (many) select.multiple = true;
  else select.append(Object.assign(el("option", "", c.placeholder || "…"), { value: "", disabled: true, selected: true }));
  for (const o of c.options || []) {
    const option = el("option", "", ((o.emoji && !o.emoji.id && o.emoji.name) ? o.emoji.name + " " : "") + o.label + (o.description ? " — " + o.description : ""));
    option.value = o.value;
    select.append(option);
  }
  const send = () => {
    const values = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== "");
    act({ kind: "select", message: message.id, custom_id: c.custom_id, values });
  };
  wrap.append(select);
  if (many) { const b = el("button", "style-1", label("choose")); b.type = "button"; b.onclick = send; wrap.append(b); }
  else select.onchange = send;
  return wrap;
}

function drawMessage(m) {
  const item = el("li", m.ephemeral ? "message ephemeral" : "message");
  item.dataset.id = m.id;
  if (m.used) item.append(el("div", "used", m.used.name + " " + label("used") + " /" + m.used.command));
  const head = item.appendChild(el("div", "head"));
  head.append(el("span", "author", m.author.name));
  if (m.author.bot) head.append(el("span", "tag", label("bot_tag")));
  head.append(el("span", "time", new Date(m.at).toLocaleTimeString(page.locale)));
  if (m.edited) head.append(el("span", "edited", label("edited")));
  if (m.content) item.append(markdown(m.content));
  for (const embed of m.embeds) item.append(drawEmbed(embed));
  for (const file of m.files) {
    if (/\.(png|gif|jpe?g|webp)$/i.test(file.name)) {
      const img = el("img", "file-image"); img.src = file.url; img.alt = file.description || file.name; item.append(img);
    } else { const a = el("a", "", file.name); a.href = file.url; item.append(a); }
  }
  if (m.components.length) item.append(drawComponents(m, m.components));
  item.dataset.components = JSON.stringify(m.components);
  if (m.ephemeral) item.append(el("div", "note", "👁 " + label("only_you")));
  return item;
}

// ---- the page ------------------------------------------------------------------------------------
function channelList() {
  const channels = $("channels"), dms = $("dms");
  channels.replaceChildren(); dms.replaceChildren();
  for (const c of page.state.channels) {
    const item = el("li", c.kind, c.kind === "dm" ? "@ " + c.name : (c.kind === "thread" ? "└ " : "# ") + c.name);
    item.dataset.channel = c.id;
    if (c.id === page.channel) item.classList.add("selected");
    if (c.id !== page.channel && c.newest && page.seen.get(c.id) !== c.newest) item.classList.add("unread");
    item.onclick = () => { page.channel = c.id; refresh(); };
    (c.kind === "dm" ? dms : channels).append(item);
  }
}

function draw() {
  const state = page.state;
  const shown = state.channels.find((c) => c.messages !== null);
  if (page.channel !== shown.id) page.channel = shown.id; // the one asked for is gone: the games channel
  page.seen.set(shown.id, shown.newest);
  channelList();
  $("server-name").textContent = state.server;
  $("channel-title").textContent = (shown.kind === "dm" ? "@ " : "# ") + shown.name;
  const list = $("messages");
  const switched = list.dataset.channel !== shown.id;
  list.dataset.channel = shown.id;
  const atBottom = switched || page.following;
  const items = [];
  for (const m of shown.messages) {
    const key = JSON.stringify(m);
    const old = page.drawn.get(m.id);
    if (old && old.dataset.key === key) { items.push(old); continue; }
    const node = drawMessage(m);
    node.dataset.key = key;
    page.drawn.set(m.id, node);
    if (old && old.parentNode === list) {
      // An edit: only that message is redrawn, keeping its height until its new pictures are in, so that
      // a race edited card by card does not make the conversation jump.
      node.style.minHeight = old.offsetHeight + "px";
      // Its buttons and menus stay the same elements when they did not change: a click (or a menu being
      // opened) lands even while the rest of the message is edited card by card.
      const kept = old.querySelector(":scope > .components"), fresh = node.querySelector(":scope > .components");
      if (kept && fresh && old.dataset.components === node.dataset.components) fresh.replaceWith(kept);
      old.replaceWith(node);
      const pictures = [...node.querySelectorAll("img")].map((img) => img.decode().catch(() => null));
      Promise.all(pictures).then(() => { node.style.minHeight = ""; });
    }
    items.push(node);
  }
  if (!items.length) items.push(el("li", "empty", label("nothing_yet")));
  const same = items.length === list.children.length && items.every((n, i) => list.children[i] === n);
  if (!same) list.replaceChildren(...items);
  if (atBottom) list.scrollTop = list.scrollHeight; // follow the conversation, unless reading back
  page.following = atBottom;
  drawForms();
}

async function refresh() {
  if (page.loading) { page.again = true; return; }
  page.loading = true;
  try {
    do {
      page.again = false;
      const me = page.me, channel = page.channel;
      const reading = channel ? "&channel=" + encodeURIComponent(channel) : "";
      const response = await fetch("/api/state?as=" + encodeURIComponent(me) + reading);
      const text = await response.text();
      if (!response.ok) throw new Error((JSON.parse(text || "{}").error) || response.statusText);
      // Someone else chosen, or another channel opened, while this was on its way: it is not what they
      // look at now (drawn, it would take them back to where they were), so ask again.
      if (me !== page.me || channel !== page.channel) { page.again = true; continue; }
      document.body.dataset.updates = String(++page.updates); // how many views came in (tests wait on it)
      // Every change anywhere wakes every page; most change nothing this person sees: nothing to draw.
      if (text === page.shown) continue;
      page.shown = text;
      page.state = JSON.parse(text);
      draw();
    } while (page.again);
  } catch (error) {
    $("status").textContent = error.message;
  } finally {
    page.loading = false;
  }
}

// ---- forms (modals) ------------------------------------------------------------------------------
function drawForms() {
  const dialog = $("form");
  const open = page.state.forms[0];
  if (!open) { if (dialog.open) dialog.close(); dialog.dataset.form = ""; return; }
  if (dialog.dataset.form === open.id && dialog.open) return;
  dialog.dataset.form = open.id;
  dialog.replaceChildren(el("h3", "", open.title));
  const inputs = [];
  const walk = (components, name) => {
    for (const c of components) {
      if (c.type === 18) { walk([c.component], c.label); continue; }
      if (c.components) { walk(c.components, name); continue; }
      if (c.type !== 4) continue;
      const box = dialog.appendChild(el("label", "", c.label || name || c.custom_id));
      const input = el(c.style === 2 ? "textarea" : "input");
      input.name = c.custom_id; input.value = c.value || ""; input.placeholder = c.placeholder || "";
      input.required = c.required !== false;
      box.append(input); inputs.push(input);
    }
  };
  walk(open.components || []);
  const row = dialog.appendChild(el("div", "row"));
  const cancel = row.appendChild(el("button", "style-2", label("cancel")));
  const submit = row.appendChild(el("button", "style-1", label("submit")));
  cancel.onclick = () => { dialog.close(); act({ kind: "dismiss", form: open.id }); };
  submit.onclick = () => {
    const values = Object.fromEntries(inputs.map((i) => [i.name, i.value]));
    dialog.close(); act({ kind: "form", form: open.id, values });
  };
  dialog.showModal();
}

// ---- the command box -----------------------------------------------------------------------------
function localized(thing, key) {
  const names = thing[key + "_localizations"] || {};
  return names[page.locale] || thing[key];
}

function commandPaths() {
  const found = [];
  const walk = (prefix, shownPrefix, item) => {
    const path = prefix.concat(item.name), shown = shownPrefix.concat(localized(item, "name"));
    const nested = (item.options || []).filter((o) => o.type === 1 || o.type === 2);
    if (nested.length) nested.forEach((o) => walk(path, shown, o));
    else found.push({ path: path.join(" "), shown: shown.join(" "), description: localized(item, "description"), options: item.options || [] });
  };
  page.commands.forEach((c) => walk([], [], c));
  return found;
}

function suggest() {
  const typed = $("command").value.replace(/^\//, "").trim().toLowerCase();
  const box = $("suggestions");
  if (!$("command").value.startsWith("/") || (page.chosen && $("command").value === "/" + page.chosen.shown)) { box.hidden = true; return; }
  const matches = commandPaths().filter((c) => c.shown.toLowerCase().includes(typed) || c.path.includes(typed));
  box.replaceChildren(...matches.map((c) => {
    const item = el("li", "", "/" + c.shown);
    item.dataset.command = c.path;
    item.append(el("span", "description", c.description));
    item.onclick = () => choose(c);
    return item;
  }));
  box.hidden = !matches.length;
}

function choose(command) {
  page.chosen = command;
  $("command").value = "/" + command.shown;
  $("suggestions").hidden = true;
  const box = $("options");
  box.replaceChildren();
  for (const o of command.options) {
    const field = box.appendChild(el("label", o.required ? "required" : ""));
    field.append(el("span", "", localized(o, "name")));
    field.title = localized(o, "description");
    let input;
    if (o.choices) {
      input = el("select");
      input.append(Object.assign(el("option", "", "—"), { value: "" }));
      for (const choice of o.choices) input.append(Object.assign(el("option", "", localized(choice, "name")), { value: JSON.stringify(choice.value) }));
    } else if (o.type === 5) {
      input = el("select");
      for (const [text, value] of [["—", ""], ["true", "true"], ["false", "false"]]) input.append(Object.assign(el("option", "", text), { value }));
    } else if (o.type === 6) {
      input = el("select");
      input.append(Object.assign(el("option", "", "—"), { value: "" }));
      for (const p of page.state.people) input.append(Object.assign(el("option", "", p.name), { value: JSON.stringify(p.id) }));
    } else {
      input = el("input");
      input.type = o.type === 4 || o.type === 10 ? "number" : "text";
      if (o.type === 10) input.step = "any"; // a number option takes fractions (a pace of 0.5 s)
      if (o.min_value !== undefined) input.min = o.min_value;
      if (o.max_value !== undefined) input.max = o.max_value;
    }
    input.name = o.name;
    input.dataset.type = o.type;
    field.append(input);
  }
  $("command").focus();
}

function optionValues() {
  const options = {};
  for (const input of $("options").querySelectorAll("[name]")) {
    const raw = input.value;
    if (raw === "") continue;
    const type = Number(input.dataset.type);
    if (input.tagName === "SELECT" && type !== 5) options[input.name] = JSON.parse(raw);
    else if (type === 5) options[input.name] = raw === "true";
    else if (type === 4) options[input.name] = parseInt(raw, 10);
    else if (type === 10) options[input.name] = Number(raw);
    else options[input.name] = raw;
  }
  return options;
}

async function sendCommand(event) {
  event.preventDefault();
  const typed = $("command").value.replace(/^\//, "").trim();
  const command = page.chosen && typed === page.chosen.shown ? page.chosen
    : commandPaths().find((c) => c.shown === typed || c.path === typed);
  if (!command) { $("status").textContent = "/" + typed + "?"; return; }
  const done = await act({ kind: "command", command: command.path, channel: page.channel, options: optionValues() });
  if (done) { $("command").value = ""; $("options").replaceChildren(); page.chosen = null; }
}

// ---- start ---------------------------------------------------------------------------------------
async function start() {
  const registered = await api("/api/commands");
  page.locale = registered.locale; page.labels = registered.labels; page.commands = registered.commands;
  document.documentElement.lang = page.locale;
  for (const node of document.querySelectorAll("[data-label]")) node.textContent = label(node.dataset.label);
  $("command").placeholder = label("command_placeholder");
  const people = await api("/api/people");
  const wanted = new URLSearchParams(location.search).get("as") || localStorage.getItem("playground-person");
  const me = people.find((p) => p.name === wanted || p.id === wanted) || people[0];
  page.me = me.id;
  $("person").replaceChildren(...people.map((p) => Object.assign(el("option", "", p.name), { value: p.id, selected: p.id === me.id })));
  $("person").onchange = () => {
    page.me = $("person").value; page.drawn.clear(); page.seen.clear(); page.channel = null; page.shown = null;
    localStorage.setItem("playground-person", $("person").selectedOptions[0].textContent);
    refresh();
  };
  // Following the conversation: as long as the person has not scrolled up to read back. A picture that
  // comes in after its message was drawn makes the conversation taller: followed, it stays in view.
  const list = $("messages");
  list.addEventListener("scroll", () => { page.following = list.scrollHeight - list.scrollTop - list.clientHeight < 40; });
  list.addEventListener("load", () => { if (page.following) list.scrollTop = list.scrollHeight; }, true);
  $("command").addEventListener("input", suggest);
  $("command").addEventListener("focus", suggest);
  $("command-box").addEventListener("submit", sendCommand);
  await refresh();
  const events = new EventSource("/api/events");
  events.addEventListener("change", refresh);
  events.onerror = () => { $("status").textContent = label("offline"); };
  events.onopen = () => { $("status").textContent = ""; };
  document.body.dataset.ready = "yes";
}

start();
