// Compares a mocha JSON report of dynalite's suite with the expected failures.
//   node report.js REPORT.json expected-failures.txt [--write-new FILE] [--strict]
// Exit 1 on a failure not listed (a new failure); tests listed but passing are reported (exit 1 with --strict).
// expected-failures.txt: a "# reason: TEXT" line gives the reason of the titles below it, up to the next such
// line; every other line is a test's full title (mocha's fullTitle) or a comment starting with "#".
'use strict'
const fs = require('fs')

const [reportFile, expectedFile, ...rest] = process.argv.slice(2)
const strict = rest.includes('--strict')
const writeNew = rest.includes('--write-new') ? rest[rest.indexOf('--write-new') + 1] : null

const raw = fs.readFileSync(reportFile, 'utf8')
const report = JSON.parse(raw.slice(raw.indexOf('{\n  "stats"')))

const expected = new Map()
let reason = null
for (const line of fs.readFileSync(expectedFile, 'utf8').split('\n')) {
  const m = line.match(/^# reason: (.+)$/)
  if (m) { reason = m[1].trim(); continue }
  if (!line.trim() || line.startsWith('#')) continue
  if (!reason) { console.error(`${expectedFile}: "${line}" has no reason above it`); process.exit(2) }
  expected.set(line, reason)
}

// Each test once, in run order; a title the suite uses twice in one file gets " [2]" on its second use, and so on.
// A test whose callback failed (called twice included) counts as failed; a failed hook counts as one test.
const seen = new Map()
const outcome = new Map()
const message = new Map()
for (const t of report.tests) {
  const n = (seen.get(t.fullTitle) || 0) + 1
  seen.set(t.fullTitle, n)
  const title = n === 1 ? t.fullTitle : `${t.fullTitle} [${n}]`
  const failedHere = t.err && Object.keys(t.err).length > 0
  const pending = report.pending.some(p => p.fullTitle === t.fullTitle)
  if (pending) continue
  outcome.set(title, failedHere ? 'failed' : 'passed')
  if (failedHere) message.set(title, (t.err.message || '').split('\n')[0])
}
for (const t of report.failures.filter(t => /" hook/.test(t.title))) {
  outcome.set(t.fullTitle, 'failed')
  message.set(t.fullTitle, (t.err && t.err.message || '').split('\n')[0])
}
const passed = new Set([...outcome].filter(([, o]) => o === 'passed').map(([t]) => t))
const failedTitles = new Set([...outcome].filter(([, o]) => o === 'failed').map(([t]) => t))
const failed = [...failedTitles].map(title => ({title, message: message.get(title)}))
const newFailures = failed.filter(f => !expected.has(f.title))
const nowPassing = [...expected.keys()].filter(t => passed.has(t) && !failedTitles.has(t))
const notRun = [...expected.keys()].filter(t => !passed.has(t) && !failedTitles.has(t))

const total = passed.size + failedTitles.size
console.log(`dynalite suite: ${passed.size} of ${total} tests passed, ${failedTitles.size} failed ` +
  `(${failedTitles.size - newFailures.length} of them expected, ${newFailures.length} new)`)
const byReason = new Map()
for (const f of failed) {
  const r = expected.get(f.title)
  if (r) byReason.set(r, (byReason.get(r) || 0) + 1)
}
for (const [r, n] of [...byReason].sort((a, b) => b[1] - a[1])) console.log(`  expected: ${String(n).padStart(4)}  ${r}`)
if (nowPassing.length) {
  console.log(`\n${nowPassing.length} test(s) listed as expected failures now pass (remove them from ${expectedFile}):`)
  for (const t of nowPassing) console.log(`  ${t}`)
}
if (notRun.length) {
  console.log(`\n${notRun.length} test(s) listed as expected failures did not run (renamed? a hook failed?):`)
  for (const t of notRun) console.log(`  ${t}`)
}
if (newFailures.length) {
  console.log(`\n${newFailures.length} NEW failure(s), not in ${expectedFile}:`)
  for (const f of newFailures) console.log(`  ${f.title}\n      ${f.message}`)
}
if (writeNew) {
  fs.writeFileSync(writeNew, newFailures.map(f => `${f.title}\t${f.message}`).join('\n') + '\n')
}
process.exit(newFailures.length || (strict && nowPassing.length) ? 1 : 0)
