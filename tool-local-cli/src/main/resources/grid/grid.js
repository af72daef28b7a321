// The issue grid and any declared index, read through the HTTP API:
//   GET /v1/indexes                  the indexes the stack's grid layout state reads, for the picker;
//   GET /v1/grid?project&field&...   the issue grid (the index listed with grid: true, in either layout), the default;
//   GET /v1/indexes/{index}/items?group&entry&...   any other declared index;
// each with order, pageSize, cursor, missing, one filter on the sorted field, and any number of where conditions on
// any column (one where parameter each, in PredicateText's syntax: "f1 = open", "f2 >= 3"), a read budget and
// explain=true, whose plan and cost show under the grid; total=true, for "1–10 of 1,234" above it; a where expression
// with and, or, not and parentheses too ("f1 = open or f2 >= 3", ExpressionText's syntax); on the grid, several
// projects at once (the project box's comma-separated projects, project once each: one merged page stream); and
//   GET /v1/grid/facets, /v1/indexes/{index}/facets   the sorted field's values with their counts, under the filters.
// Signs each request with SigV4 (IAM mode, the local credentials) or sends a bearer token (JWT mode).
import { sign } from "./sigv4.js";

const $ = (id) => document.getElementById(id);

// The issue grid as the page knows it until GET /v1/indexes answers (in the JWT mode it needs a token too)
const GRID = { name: "", layout: "field-partitioned", group: ["project"], values: "entriesOf", path: "custom_fields", orderBy: [],
  projection: [], grid: true };

const state = {
  config: null,
  indexes: null, // the declared indexes, once GET /v1/indexes has answered
  index: GRID, // the index read
  groupValues: new Map([["project", "project#1"]]), // by group attribute: kept when another index has the same group
  entries: new Map([["", "f1"]]), // the map entry last given for each index (by entryKey)
  shown: false, // whether the inputs show an index yet
  noMissing: new Map(), // index name -> why the API lists no items lacking its value there
  wantMissing: true, // the box's state where an index has the items lacking its value
  order: "asc",
  cursors: [null], // cursors[i] reads page i + 1; previous pages are cursors already walked
  filter: null, // { label, parameters }
  where: [], // the where conditions of the pages shown (as sent: their cursors belong to them)
  budget: "", // the read budget of the pages shown; empty: the API's
  requested: 0, // loads started; an answer to an older one than the latest is dropped
  loaded: 0, // loads answered and shown (document.body.dataset.loads)
  pageSizes: [], // pageSizes[i]: the items page i + 1 showed, for the first position of the next ("11–20 of 57")
  facetsRequested: 0, // facet loads started; an answer to an older one is dropped
};

// the API marks the issue grid (grouped on a new stack, field-partitioned on one that had it before); an older API did not
const isGrid = (index) => index.grid === true || index.layout === "field-partitioned";
const overEntries = (index) => index.values === "entriesOf";
// the grid's field is kept under "", its name being unknown until the indexes are listed
const entryKey = (index) => (isGrid(index) ? "" : index.name);

async function call(path, parameters) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(parameters)) {
    if (Array.isArray(value)) {
      // every one, empty ones included: a group value's place says which attribute it is for
      value.forEach((each) => url.searchParams.append(name, String(each)));
    } else if (value !== null && value !== undefined && value !== "") {
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

// a dotted attribute path (as GET /v1/indexes spells them) in an item as the API gives it
function resolve(item, path) {
  let value = item;
  for (const name of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = value[name];
  }
  return value;
}

function describe(index) {
  const values = index.values === "entriesOf" ? "entries of " + index.path
    : index.values === "elementsOf" ? "elements of " + index.path : index.path;
  if (isGrid(index)) return `${index.name} — the issue grid (${values}, per ${index.group.join(", ")})`;
  return `${index.name} — ${values}` + (index.group.length ? `, per ${index.group.join(", ")}` : "");
}

function groupInputs() {
  return [...document.querySelectorAll("#groupInputs input")];
}

// The inputs the chosen index needs: its group values, and its map entry when it indexes map entries
function showIndex(index) {
  if (state.shown) {
    state.entries.set(entryKey(state.index), $("entry").value.trim());
    groupInputs().forEach((input) => state.groupValues.set(input.dataset.attribute, input.value));
  }
  state.shown = true;
  state.index = index;
  $("heading").textContent = isGrid(index) ? "Issue grid" : "Index " + index.name;
  $("route").textContent = isGrid(index) ? "GET /v1/grid" : `GET /v1/indexes/${index.name}/items`;
  const inputs = index.group.map((attribute, i) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.id = "group-" + i;
    input.dataset.attribute = attribute;
    input.value = state.groupValues.get(attribute) || "";
    input.placeholder = isGrid(index) ? "project#1, or several: project#1, project#2" : "text, or N:42 for a number";
    input.autocomplete = "off";
    label.append(isGrid(index) ? "Project(s)" : "Group: " + attribute, " ", input);
    return label;
  });
  $("groupInputs").replaceChildren(...inputs);
  $("entryBox").hidden = !overEntries(index);
  $("entryLabel").textContent = isGrid(index) ? "Sort by field" : "Entry of " + index.path;
  $("entry").value = state.entries.get(entryKey(index)) || "";
  const noMissing = state.noMissing.get(index.name);
  $("missing").disabled = Boolean(noMissing);
  $("missing").checked = !noMissing && state.wantMissing;
  $("missingBox").title = noMissing || "";
  $("missingLabel").textContent = noMissing ? "(this index lists no items lacking its value)"
    : isGrid(index) ? "then the issues without the field"
      : overEntries(index) ? "then the items without the entry" : "then the items without " + index.path;
}

function fillPicker() {
  const listed = state.indexes || [GRID];
  $("index").replaceChildren(...listed.map((index) => {
    const option = document.createElement("option");
    option.value = index.name;
    option.textContent = state.indexes ? describe(index) : "the issue grid (GET /v1/grid)";
    return option;
  }));
  $("index").value = state.index.name;
}

// GET /v1/indexes; where it is refused (a JWT mode page without a token) the page reads the issue grid only
async function listIndexes() {
  const { status, body } = await call("/v1/indexes", {});
  if (status !== 200) {
    showProblem(status, body);
    return false;
  }
  state.indexes = body.indexes;
  return true;
}

// The index to show once the indexes are listed: the one asked for, else the one shown, else the grid, else the first
function chooseIndex(asked) {
  const listed = state.indexes || [];
  const named = (name) => listed.find((index) => index.name === name);
  return named(asked) || (state.index !== GRID && named(state.index.name)) || listed.find(isGrid) || listed[0] || GRID;
}

// What the index needs that the inputs lack, in words; null when it can be read
function lacking() {
  const missing = groupInputs().filter((input) => !input.value.trim()).map((input) => input.dataset.attribute);
  if (overEntries(state.index) && !$("entry").value.trim()) missing.push(isGrid(state.index) ? "a field" : "an entry of " + state.index.path);
  return missing.length ? missing.join(", ") : null;
}

// The columns of a page: for an index over map entries, the entries its items have (the sorted one first), and
// otherwise the indexed value, its tie-breakers; then the index's projection. Sortable: an entry, or the sorted column.
function columnsOf(items, index, entry) {
  const columns = [];
  const seen = new Set();
  const add = (name, kind) => {
    if (!seen.has(name)) {
      seen.add(name);
      columns.push({ name, kind });
    }
  };
  if (overEntries(index)) {
    const names = new Set([entry]);
    for (const row of items) {
      const fields = row.item && resolve(row.item, index.path);
      if (fields && typeof fields === "object" && !Array.isArray(fields)) Object.keys(fields).forEach((name) => names.add(name));
    }
    [...names].sort((a, b) => (a === entry ? -1 : b === entry ? 1 : a.localeCompare(b))).forEach((name) => add(name, "entry"));
  } else {
    add(index.path, "value");
    index.orderBy.forEach((name) => add(name, "attribute"));
  }
  index.projection.forEach((name) => add(name, "attribute"));
  return columns;
}

function sortedColumn(index, entry) {
  return overEntries(index) ? entry : index.path;
}

function render(page, index, entry) {
  const sorted = sortedColumn(index, entry);
  const columns = columnsOf(page.items, index, entry);
  offerFields(index, columns);
  const head = document.querySelector("#grid thead tr");
  head.replaceChildren();
  const keyHeader = document.createElement("th");
  keyHeader.textContent = isGrid(index) ? "issue" : page.items.length ? Object.keys(page.items[0].key).join(" / ") : "key";
  keyHeader.className = "key";
  head.append(keyHeader);
  for (const column of columns) {
    const th = document.createElement("th");
    th.dataset.field = column.name;
    th.textContent = column.name + " ";
    if (column.name === sorted) {
      th.classList.add("sorted");
      const arrow = document.createElement("span");
      arrow.className = "arrow";
      arrow.textContent = page.order === "asc" ? "▲" : "▼";
      th.append(arrow);
    }
    if (column.kind === "entry" || column.name === sorted) {
      th.classList.add("sortable");
      th.title = column.name === sorted ? "reverse the order" : "sort by " + column.name;
      th.addEventListener("click", () => sortBy(column.name));
    }
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
    const fields = (overEntries(index) && row.item && resolve(row.item, index.path)) || {};
    for (const column of columns) {
      const td = document.createElement("td");
      if (column.name === sorted) td.classList.add("sorted");
      if (column.name === sorted && row.missing) {
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = "missing";
        td.append(badge);
      } else if (column.name === sorted) {
        // the value the API gives for the item: an entry's, an attribute's; for an index over list elements, the list
        td.textContent = display(row.value);
      } else {
        td.textContent = display(column.kind === "entry" ? fields[column.name] : resolve(row.item || {}, column.name));
      }
      tr.append(td);
    }
    body.append(tr);
  }
  if (page.items.length === 0) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = columns.length + 1;
    td.textContent = isGrid(index) ? "no issues" : "no items";
    tr.append(td);
    body.append(tr);
  }
}

function showProblem(status, body) {
  const problem = typeof body === "object" && body !== null ? body : { title: String(body) };
  $("problem").hidden = false;
  $("problem").textContent = `${status} ${problem.title || problem.message || ""}` + (problem.detail ? ": " + problem.detail : "")
    + (problem.parameter ? ` (parameter ${problem.parameter})` : "");
  $("status").textContent = "";
}

function clearRows() {
  document.querySelector("#grid thead tr").replaceChildren();
  document.querySelector("#grid tbody").replaceChildren();
  $("next").disabled = true;
  $("previous").disabled = true;
}

async function load() {
  const index = state.index;
  const page = state.cursors.length;
  const group = groupInputs().map((input) => input.value.trim());
  const entry = $("entry").value.trim();
  const missing = !state.filter && $("missing").checked && !$("missing").disabled;
  const common = {
    order: state.order,
    pageSize: $("pageSize").value,
    cursor: state.cursors[page - 1],
    missing: missing ? "true" : null,
    ...(state.filter ? state.filter.parameters : {}),
    where: state.where,
    budget: state.budget,
    explain: "true",
    total: "true",
  };
  const [path, parameters] = isGrid(index)
    ? ["/v1/grid", { project: projectsOf(group[0]), field: entry, ...common }]
    : [`/v1/indexes/${encodeURIComponent(index.name)}/items`, { group, entry: overEntries(index) ? entry : null, ...common }];
  const request = ++state.requested;
  $("status").textContent = "loading…";
  $("grid").setAttribute("aria-busy", "true");
  const { status, body } = await call(path, parameters);
  if (request !== state.requested) return;
  if (status === 400 && missing && !isGrid(index) && body && body.parameter === "missing") {
    // no source lists the items this index leaves out of the group (it is not grouped by the table's partition key):
    // read the index alone, and say so beside the box
    state.noMissing.set(index.name, body.detail || "");
    showIndex(index);
    return load();
  }
  $("grid").removeAttribute("aria-busy");
  document.body.dataset.loads = String(++state.loaded);
  $("problem").hidden = status === 200;
  markWhere(status === 200 ? null : body);
  if (status !== 200) {
    showProblem(status, body);
    // the rows of the previous answer do not match what was asked
    document.querySelector("#grid tbody").replaceChildren();
    $("next").disabled = true;
    $("planSection").hidden = true;
    return;
  }
  render(body, index, entry);
  showPlan(body);
  showRange(body, page);
  loadFacets(index, group, entry);
  const noun = isGrid(index) ? "issue" : "item";
  const tail = body.items.filter((row) => row.missing).length;
  $("status").textContent = `${body.items.length} ${noun}(s) on this page`
    + (tail ? `, ${tail} of them without ${sortedColumn(index, entry)}` : "");
  $("pageNumber").textContent = "page " + page;
  $("previous").disabled = page === 1;
  $("next").disabled = !body.nextCursor;
  $("next").dataset.cursor = body.nextCursor || "";
}

// Counts as people read them: 1,234, and 10,000+ for a lower bound (relation gte)
function countText(value, relation) {
  return value.toLocaleString("en-US") + (relation === "gte" ? "+" : "");
}

// "1–10 of 57" above the grid: the page's positions within its request's total
function showRange(page, number) {
  state.pageSizes.length = number - 1;
  state.pageSizes[number - 1] = page.items.length;
  const total = page.total;
  $("range").hidden = !total;
  if (!total) return;
  const first = state.pageSizes.slice(0, number - 1).reduce((sum, size) => sum + size, 0);
  const of = " of " + countText(total.value, total.relation);
  $("range").textContent = page.items.length === 0 ? first + of
    : `${(first + 1).toLocaleString("en-US")}–${(first + page.items.length).toLocaleString("en-US")}` + of;
  $("range").title = total.source === "kept" ? "from the counts the pipeline keeps" : total.relation === "gte"
    ? "counted at read time until the read budget ran out: at least this many" : "counted at read time";
}

// The sorted field's values with their counts (of the items matching the Where conditions), beside the filters; a value
// applies it as the filter
async function loadFacets(index, group, entry) {
  const request = ++state.facetsRequested;
  const field = overEntries(index) ? entry : index.path;
  if (isGrid(index) && projectsOf(group[0]).length > 1) {
    // the facets count one project's issues (GET /v1/grid/facets takes one project)
    $("facets").hidden = true;
    return;
  }
  const [path, parameters] = isGrid(index)
    ? ["/v1/grid/facets", { project: projectsOf(group[0])[0], field, where: state.where, budget: state.budget }]
    : [`/v1/indexes/${encodeURIComponent(index.name)}/facets`, { group, field, where: state.where, budget: state.budget }];
  const { status, body } = await call(path, parameters);
  if (request !== state.facetsRequested) return;
  $("facets").hidden = status !== 200;
  if (status !== 200) return;
  const facet = body.facets[0];
  $("facetsLabel").textContent = `${facet.field}:`;
  const list = $("facetValues");
  list.replaceChildren();
  for (const each of facet.values) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "facet";
    button.dataset.value = display(each.value);
    button.textContent = `${display(each.value)} ${countText(each.count, facet.relation)}`;
    button.addEventListener("click", () => {
      const value = each.value;
      const type = typeof value === "number" ? "number" : typeof value === "boolean" ? "bool" : "text";
      applyFilter(`${facet.field} = ${display(value)}`, { type, equals: String(value) });
    });
    list.append(button);
  }
  if (facet.otherValues > 0) {
    const other = document.createElement("span");
    other.className = "facet-other";
    other.textContent = `${countText(facet.otherValues, facet.relation)} other value(s): ${countText(facet.otherCount, facet.relation)}`;
    list.append(other);
  }
  document.body.dataset.facetLoads = String(Number(document.body.dataset.facetLoads || "0") + 1);
}

// A field as a predicate writes it: a name with spaces, quotes or operator characters in double quotes
function predicateField(field) {
  return /^[^\s=!<>"]+$/.test(field) ? field : quoted(field);
}

function quoted(text) {
  return '"' + text.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
}

// One where condition's text: "field op value"; in takes a list in parentheses, beginsWith text (quoted unless it is)
function predicateText(field, op, value) {
  const name = predicateField(field);
  if (op === "present" || op === "missing") return `${name} ${op}`;
  let text = value.trim();
  if (op === "in" && !text.startsWith("(")) text = "(" + text + ")";
  if (op === "beginsWith" && !text.startsWith('"') && !text.startsWith("S:")) text = quoted(text);
  return `${name} ${op} ${text}`;
}

const OPERATORS = ["=", "!=", "<", "<=", ">", ">=", "in", "beginsWith", "present", "missing"];

// A row of the Where box: field (any column, or @ and an attribute path), operator, value, and a button that removes it
function addWhereRow(field = "", op = "=", value = "") {
  const row = document.createElement("div");
  row.className = "where-row";
  const fieldInput = document.createElement("input");
  fieldInput.className = "where-field";
  fieldInput.setAttribute("list", "whereFields");
  fieldInput.placeholder = "column, or @attribute";
  fieldInput.autocomplete = "off";
  fieldInput.value = field;
  const opSelect = document.createElement("select");
  opSelect.className = "where-op";
  opSelect.replaceChildren(...OPERATORS.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name === "beginsWith" ? "begins with" : name;
    return option;
  }));
  opSelect.value = op;
  const valueInput = document.createElement("input");
  valueInput.className = "where-value";
  valueInput.placeholder = "value: 3, open, \"text\", N:42, a, b for in";
  valueInput.autocomplete = "off";
  valueInput.value = value;
  const showValue = () => { valueInput.hidden = opSelect.value === "present" || opSelect.value === "missing"; };
  opSelect.addEventListener("change", showValue);
  showValue();
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "where-remove";
  remove.title = "remove this condition";
  remove.textContent = "×";
  remove.addEventListener("click", () => row.remove());
  row.append(fieldInput, opSelect, valueInput, remove);
  $("whereRows").append(row);
  return row;
}

// The conditions the Where box holds, as where parameters; rows without a field are left out
function whereOfRows() {
  return [...document.querySelectorAll("#whereRows .where-row")]
    .map((row) => [row.querySelector(".where-field").value.trim(), row.querySelector(".where-op").value, row.querySelector(".where-value").value])
    .filter(([field]) => field)
    .map(([field, op, value]) => predicateText(field, op, value));
}

// The columns a condition may name, offered in the field box: the page's columns (entries, or @ and attributes)
function offerFields(index, columns) {
  $("whereFields").replaceChildren(...columns.map((column) => {
    const option = document.createElement("option");
    option.value = column.kind === "entry" ? column.name : "@" + column.name;
    return option;
  }));
}

// What the page read and how, from the API's explain: the plan, the items read, the calls; the suggested index, if any
function showPlan(page) {
  const explain = page.explain;
  $("planSection").hidden = !explain;
  if (!explain) return;
  const read = explain.read;
  $("plan").textContent = `plan: ${explain.plan} — ${page.examined ?? read.indexItems + read.tableItems} items read `
    + `(${read.indexItems} index, ${read.tableItems} table), ${read.queries + read.batchGets} calls `
    + `(${read.queries} Query, ${read.batchGets} BatchGetItem)`
    + (page.budgetSpent ? " — the read budget ran out before the page filled: Next goes on" : "");
  $("plan").title = explain.reason + "\n" + explain.alternatives.map((a) => `${a.plan}: ${a.estimatedItems < 0 ? "?" : a.estimatedItems} `
    + `items (${a.basis})`).join("\n");
  $("suggestionBox").hidden = !explain.suggestion;
  $("suggestion").textContent = explain.suggestion || "";
}

// The grid's projects as the project box gives them: one, or several separated by commas (project once each)
function projectsOf(text) {
  return (text || "").split(",").map((project) => project.trim()).filter((project) => project);
}

// Under the Where expression, where the API refused it: the text and a caret at the character its problem's offset
// member names; hidden when the answer is no problem about it
function markWhere(problem) {
  const expression = $("whereExpression");
  const position = problem && problem.parameter === "where" ? problem.position : undefined;
  const text = position === undefined ? undefined : state.where[position];
  const offset = problem && Number.isInteger(problem.offset) ? problem.offset : undefined;
  const ours = text !== undefined && text === expression.value.trim();
  expression.classList.toggle("invalid", ours);
  $("whereMark").hidden = !ours;
  if (!ours) return;
  $("whereMark").textContent = offset !== undefined ? text + "\n" + " ".repeat(offset) + "^" : text;
  // the offset counts characters (code points); the box's selection UTF-16 units
  const at = offset === undefined ? undefined : Array.from(text).slice(0, offset).join("").length;
  if (at !== undefined) expression.setSelectionRange(at, at);
}

// Reads the first page when the inputs name a group (and entry); else says what to give
function loadIfComplete() {
  const needed = lacking();
  if (!needed) return load();
  clearRows();
  $("status").textContent = `give ${needed}, then Load`;
  $("pageNumber").textContent = "page 1";
  return Promise.resolve();
}

// A first page, with the Where box's conditions and budget as they are now (the next pages keep them)
function restart() {
  state.cursors = [null];
  state.where = whereOfRows();
  const expression = $("whereExpression").value.trim();
  if (expression) state.where.push(expression);
  state.budget = $("budget").value.trim();
  // an expression beside other conditions in parentheses: every where holds
  $("activeWhere").textContent = state.where.length
    ? state.where.map((each) => (state.where.length > 1 && each === expression ? "(" + each + ")" : each)).join(" and ") : "no conditions";
  return load();
}

function sortBy(column) {
  if (column === sortedColumn(state.index, $("entry").value.trim())) {
    state.order = state.order === "asc" ? "desc" : "asc";
  } else {
    $("entry").value = column;
    state.order = "asc";
  }
  $("order").value = state.order;
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
  // ?index=NAME&group=G (once per group attribute)&entry=E&order=asc|desc&pageSize=N; the grid's ?project=P&field=F
  const query = new URLSearchParams(location.search);
  if (query.get("project")) state.groupValues.set("project", query.getAll("project").join(", "));
  if (query.get("field")) state.entries.set("", query.get("field"));
  if (query.get("pageSize")) $("pageSize").value = query.get("pageSize");
  if (["asc", "desc"].includes(query.get("order"))) state.order = query.get("order");
  $("order").value = state.order;
  if (await listIndexes()) {
    const index = chooseIndex(query.get("index"));
    if (query.get("entry")) state.entries.set(entryKey(index), query.get("entry"));
    query.getAll("group").forEach((value, i) => { if (i < index.group.length) state.groupValues.set(index.group[i], value); });
    showIndex(index);
  } else {
    showIndex(GRID);
  }
  fillPicker();
  $("index").addEventListener("change", () => {
    showIndex(state.indexes.find((index) => index.name === $("index").value));
    state.order = "asc";
    $("order").value = state.order;
    state.cursors = [null];
    $("problem").hidden = true;
    clearRows();
    $("status").textContent = lacking() ? `give ${lacking()}, then Load` : `Load reads ${state.index.name}`;
  });
  $("missing").addEventListener("change", () => {
    state.wantMissing = $("missing").checked;
  });
  $("order").addEventListener("change", () => {
    state.order = $("order").value;
    if (!lacking()) restart();
  });
  $("query").addEventListener("submit", async (event) => {
    event.preventDefault();
    // a JWT mode page opened without a token lists the indexes once it has one
    if (!state.indexes && await listIndexes()) {
      showIndex(chooseIndex(null));
      fillPicker();
    }
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
  $("addWhere").addEventListener("click", () => addWhereRow().querySelector(".where-field").focus());
  $("applyWhere").addEventListener("click", () => restart());
  $("whereExpression").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      restart();
    }
  });
  $("clearFilter").addEventListener("click", () => {
    state.filter = null;
    $("activeFilter").textContent = "no filter";
    restart();
  });
  await loadIfComplete();
  await refreshEvents();
  setInterval(refreshEvents, 2000);
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("problem").hidden = false;
  $("problem").textContent = String(error);
});
