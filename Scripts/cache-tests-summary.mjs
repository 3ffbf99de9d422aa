// Summarises a results file of the HTTP WG's cache-tests suite for a private client cache.
//
//   node Scripts/cache-tests-summary.mjs <suite folder> <results.json>
//
// Left out, as Docs/HTTPCache.md says: tests for shared caches only (names that say "shared", `s-maxage`,
// `proxy-revalidate`, `Authorization` in shared caches), for browsers only (`cc-resp-immutable-*`), for CDNs only
// (`cdn_only`) and those that need 1xx responses surfaced to the caller (`interim-*`).
import fs from 'fs'
import path from 'path'
import { pathToFileURL } from 'url'

const [suiteFolder, resultsFile] = process.argv.slice(2)
const load = (file) => import(pathToFileURL(path.join(suiteFolder, file)).href)
const suites = (await load('tests/index.mjs')).default
const { determineTestResult, resultTypes } = await load('test-engine/lib/results.mjs')
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'))

const sharedOnly = new Set([
  'stale-close-proxy-revalidate', 'stale-close-s-maxage=2', 'other-authorization', 'other-authorization-public',
  'other-authorization-must-revalidate', 'other-authorization-smaxage'
])
const excluded = (test) =>
  /shared/i.test(test.name) || sharedOnly.has(test.id) || test.id.startsWith('cc-resp-immutable-') ||
  test.cdn_only === true || test.id.startsWith('interim-')

const names = new Map(Object.entries(resultTypes).map(([name, type]) => [type, name]))
const counts = {}
const notPassed = []
let total = 0
for (const suite of suites) {
  for (const test of suite.tests) {
    if (excluded(test)) continue
    total += 1
    const outcome = names.get(determineTestResult(suites, test.id, results)) ?? 'unknown'
    counts[outcome] = (counts[outcome] ?? 0) + 1
    if (outcome !== 'pass' && outcome !== 'yes') {
      const detail = Array.isArray(results[test.id]) ? results[test.id][1] : ''
      notPassed.push(`${outcome.padEnd(16)} ${(test.kind ?? 'required').padEnd(9)} ${test.id}: ${detail ?? ''}`)
    }
  }
}
console.log(`cache-tests: ${total} tests apply; pass ${counts.pass ?? 0}, required fail ${counts.fail ?? 0}, ` +
  `optimal not met ${counts.optional_fail ?? 0}, checks yes ${counts.yes ?? 0} / no ${counts.no ?? 0}, ` +
  `dependency failed ${counts.dependency_fail ?? 0}, setup failed ${counts.setup_fail ?? 0}, ` +
  `harness failed ${counts.harness_fail ?? 0}, untested ${counts.untested ?? 0}`)
for (const line of notPassed) console.log(line)
