// The issue grid, read through the HTTP API: GET /v1/grid?project&field&order&pageSize&cursor&missing&<filter>.
// Signs each request with SigV4 (IAM mode, the local credentials) or sends a bearer token (JWT mode).
import { sign } from "./sigv4.js";

const $ = (id) => document.getElementById(id);

const state = {
  config: null,
  order: "asc",
  cursors: [null], // cursors[i] reads page i + 1; previous pages are cursors already walked
  filter: null, // { label, parameters }
  requested: 0, // loads started; an answer to an older one than the latest is dropped
  loaded: 0, // loads answered and shown (document.body.dataset.loads)
};

async function call(path, parameters) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== null && value !== undefined && value !== "") {
      url.searchParams.append(name, String(value));
    }
  }
  // the signature covers the query as sent: spaces as %20, not +
  url.search = url.search.replace(/\+/g, "%20");
  const headers = {};
  if (state.config.auth === "IAM") {
    Object.assign(headers, await sign({ method: "GET", url, region: state.config.region, service: state.config.service,
      accessKeyId: state.config.accessKeyId, secretAccessKey: state.config.secretAccessKey }));
    delete headers.host;
  } else if ($("token").value.trim()) {
    headers.authorization = "Bearer " + $("token").value.trim();
  }
  const response = await fetch(url, { headers });
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  return { status: response.status, body };
}

function display(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function columnsOf(items, field) {
  const columns = new Set([field]);
  for (const row of items) {
    const fields = row.item && row.item.custom_fields;
    if (fields && typeof fields === "object") Object.keys(fields).forEach((name) => columns.add(name));
  }
  return [...columns].sort((a, b) => (a === field ? -1 : b === field ? 1 : a.localeCompare(b)));
}

function render(page) {
  const field = $("field").value.trim();
  const columns = columnsOf(page.items, field);
  const head = document.querySelector("#grid thead tr");
  head.replaceChildren();
  const keyHeader = document.createElement("th");
  keyHeader.textContent = "issue";
  keyHeader.className = "key";
  head.append(keyHeader);
  for (const column of columns) {
    const th = document.createElement("th");
    th.dataset.field = column;
    th.title = "sort by " + column;
    th.textContent = column + " ";
    if (column === field) {
      th.classList.add("sorted");
      const arrow = document.createElement("span");
      arrow.className = "arrow";
      arrow.textContent = page.order === "asc" ? "▲" : "▼";
      th.append(arrow);
    }
    th.addEventListener("click", () => sortBy(column));
    head.append(th);
  }
  const body = document.querySelector("#grid tbody");
  body.replaceChildren();
  for (const row of page.items) {
    const tr = document.createElement("tr");
    if (row.missing) tr.classList.add("missing");
    const key = document.createElement("td");
    key.className = "key";
    key.textContent = Object.values(row.key).map(display).join(" / ");
    tr.append(key);
    const fields = (row.item && row.item.custom_fields) || {};
    for (const column of columns) {
      const td = document.createElement("td");
      if (column === field) td.classList.add("sorted");
      if (column === field && row.missing) {
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = "missing";
        td.append(badge);
      } else {
        td.textContent = display(fields[column]);
      }
      tr.append(td);
    }
    body.append(tr);
  }
  if (page.items.length === 0) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = columns.length + 1;
    td.textContent = "no issues";
    tr.append(td);
    body.append(tr);
  }
}

async function load() {
  const page = state.cursors.length;
  const parameters = {
    project: $("project").value.trim(),
    field: $("field").value.trim(),
    order: state.order,
    pageSize: $("pageSize").value,
    cursor: state.cursors[page - 1],
    missing: state.filter ? null : $("missing").checked ? "true" : null,
    ...(state.filter ? state.filter.parameters : {}),
  };
  const request = ++state.requested;
  $("status").textContent = "loading…";
  $("grid").setAttribute("aria-busy", "true");
  const { status, body } = await call("/v1/grid", parameters);
  if (request !== state.requested) return;
  $("grid").removeAttribute("aria-busy");
  document.body.dataset.loads = String(++state.loaded);
  $("problem").hidden = status === 200;
  if (status !== 200) {
    const problem = typeof body === "object" && body !== null ? body : { title: String(body) };
    $("problem").textContent = `${status} ${problem.title || problem.message || ""}` + (problem.detail ? ": " + problem.detail : "")
      + (problem.parameter ? ` (parameter ${problem.parameter})` : "");
    $("status").textContent = "";
    // the rows of the previous answer do not match what was asked
    document.querySelector("#grid tbody").replaceChildren();
    $("next").disabled = true;
    return;
  }
  render(body);
  const tail = body.items.filter((row) => row.missing).length;
  $("status").textContent = `${body.items.length} issue(s) on this page` + (tail ? `, ${tail} of them without ${parameters.field}` : "");
  $("pageNumber").textContent = "page " + page;
  $("previous").disabled = page === 1;
  $("next").disabled = !body.nextCursor;
  $("next").dataset.cursor = body.nextCursor || "";
}

function restart() {
  state.cursors = [null];
  return load();
}

function sortBy(column) {
  if (column === $("field").value.trim()) {
    state.order = state.order === "asc" ? "desc" : "asc";
  } else {
    $("field").value = column;
    state.order = "asc";
  }
  return restart();
}

function applyFilter(label, parameters) {
  state.filter = { label, parameters };
  $("activeFilter").textContent = "filter: " + label;
  return restart();
}

async function refreshEvents() {
  const response = await fetch("/local/events", { cache: "no-store" }).catch(() => null);
  if (!response || !response.ok) return;
  const events = await response.json();
  $("eventsSection").hidden = false;
  const list = $("events");
  list.replaceChildren();
  for (const event of events) {
    const li = document.createElement("li");
    const type = document.createElement("span");
    type.className = "type";
    type.textContent = event.detailType;
    const time = document.createElement("time");
    time.dateTime = event.time;
    time.title = event.time;
    // a stream record's time is to the minute (DynamoDB Streams' ApproximateCreationDateTime)
    const when = new Date(event.time);
    time.textContent = isNaN(when) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    li.append(time, " ", type, " ", Object.values(event.keys || {}).map(display).join(" / "));
    if (Array.isArray(event.changedAttributes) && event.changedAttributes.length) {
      li.append(" — changed: " + event.changedAttributes.join(", "));
    }
    list.append(li);
  }
  if (events.length === 0) {
    const li = document.createElement("li");
    li.textContent = "no events yet: write to the table";
    list.append(li);
  }
}

async function main() {
  state.config = await (await fetch("/local/config.json")).json();
  if (state.config.auth === "IAM" && !(window.crypto && crypto.subtle)) {
    // Web Crypto exists only in secure contexts: https, localhost and 127.0.0.1
    throw new Error(`this page signs its requests with Web Crypto, which the browser offers only on https or localhost: `
      + `open it at http://127.0.0.1:${location.port}/ (on this machine or through an SSH tunnel)`);
  }
  if (state.config.auth === "JWT") {
    $("tokenBox").hidden = false;
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token) $("token").value = token;
  }
  const query = new URLSearchParams(location.search);
  for (const name of ["project", "field", "pageSize"]) {
    if (query.get(name)) $(name).value = query.get(name);
  }
  $("query").addEventListener("submit", (event) => {
    event.preventDefault();
    restart();
  });
  $("next").addEventListener("click", () => {
    state.cursors.push($("next").dataset.cursor);
    load();
  });
  $("previous").addEventListener("click", () => {
    state.cursors.pop();
    load();
  });
  $("applyText").addEventListener("click", () => {
    const op = $("textOp").value;
    applyFilter(`text ${op === "equals" ? "=" : "begins with"} "${$("textValue").value}"`, { type: "text", [op]: $("textValue").value });
  });
  $("applyNumber").addEventListener("click", () => {
    const min = $("numberMin").value.trim();
    const max = $("numberMax").value.trim();
    applyFilter(`number ${min || "…"} to ${max || "…"}`, { type: "number", ge: min || null, le: max || null });
  });
  $("applyBool").addEventListener("click", () => applyFilter(`boolean = ${$("boolValue").value}`, { type: "bool", equals: $("boolValue").value }));
  $("clearFilter").addEventListener("click", () => {
    state.filter = null;
    $("activeFilter").textContent = "no filter";
    restart();
  });
  await load();
  await refreshEvents();
  setInterval(refreshEvents, 2000);
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("problem").hidden = false;
  $("problem").textContent = String(error);
});
