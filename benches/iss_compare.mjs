// Compare sudoku-enum with the Interactive Sudoku Solver (ISS) on every ISS collection puzzle
// whose constraint types sudoku-enum reads: the same verdict (unique / multiple / none) and the
// same solution, and the time of a uniqueness check (count up to 2) on both sides: ISS's solve
// time in its warm process (best of 3), ours as a whole process (`sudoku-enum check --json`,
// best of 3; the solution compared comes from one more, untimed, `solve --json`). A side whose
// first run takes over a second is not run again (on either side: the same rule), so that a long
// `--timeout` can take in the puzzles that take ISS a minute.
//
//   node benches/iss_compare.mjs [--iss ../shared/peers/iss] [--bin target/release/sudoku-enum]
//        [--out /tmp/iss_compare.tsv] [--inputs /tmp/iss_inputs.tsv] [--filter NAME]
//        [--timeout SECS] [--threads N]
//
// `--threads N`: our checks on N worker threads (`-j N`; default 1, like for like with ISS's
// one thread; 0: every core, sudoku-enum's own default). ISS runs on one thread either way.
//
// ISS is used as a library (its puzzle list and its solver), as an oracle only.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const issDir = resolve(opt('--iss', '../shared/peers/iss'));
const bin = resolve(opt('--bin', 'target/release/sudoku-enum'));
const outPath = opt('--out', '/tmp/iss_compare.tsv');
const inputsPath = opt('--inputs', '/tmp/iss_inputs.tsv');
const filter = opt('--filter', null);
const timeoutS = +opt('--timeout', '10');
const threads = opt('--threads', '1');
if (!/^\d+$/.test(threads)) throw new Error(`--threads takes a number of threads, not ${threads}`);
// `-j 0` is not an option of ours: every core is what no `-j` gives.
const threadArgs = threads === '0' ? [] : ['-j', threads];
// A run longer than this is not repeated (ISS's and ours alike).
const ONCE_MS = 1000;

const { allPuzzles, buildSolver } = await import(`${issDir}/tools/lib/puzzle_runner.js`);
const { SudokuParser } = await import(`${issDir}/js/sudoku_parser.js` + self.VERSION_PARAM);

// The ISS types sudoku-enum reads (Container: the root of every puzzle).
const SUPPORTED = new Set([
  'Container', 'Given', 'Shape', 'Diagonal', 'Windoku', 'DisjointSets', 'Jigsaw', 'NoBoxes',
  'RegionSize', 'AllDifferent', 'AntiKnight', 'AntiKing', 'AntiConsecutive', 'Cage',
  'LittleKiller', 'Arrow', 'PillArrow', 'Thermo', 'WhiteDot', 'BlackDot', 'StrictKropki', 'X',
  'V', 'StrictXV', 'Renban', 'Whisper', 'Palindrome', 'Between', 'Sandwich', 'Quad',
]);

const typesOf = (input) => {
  const acc = new Set();
  const walk = (n) => { acc.add(n.cls.name); (n.children || []).forEach(walk); };
  walk(SudokuParser._parseTextToAst(input));
  return acc;
};

const issCheck = (input) => {
  let best = Infinity, verdict = null, solution = null;
  for (let rep = 0; rep < 3; rep++) {
    const { internal } = buildSolver(input);
    const grids = [];
    const t0 = performance.now();
    // ISS hands over its grid of candidate masks (one bit each): the value is the bit's index.
    internal.run({ maxSolutions: 2 }, (g) => grids.push(Array.from(g, (m) => 32 - Math.clz32(m))));
    best = Math.min(best, performance.now() - t0);
    if (best > ONCE_MS) rep = 3;
    verdict = grids.length === 0 ? 'unsolvable' : grids.length === 1 ? 'unique' : 'multiple';
    solution = grids[0] || null;
  }
  return { ms: best, verdict, solution };
};

const ours = (input) => {
  // Timed: the uniqueness check itself (`check`, counts up to 2), as the issue measures it.
  // Also noted: the check's own time inside the process (`time_ms`: reading the puzzle, the
  // rules' set-up and the search), best of the same runs.
  let best = Infinity, inner = Infinity, verdict = null;
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const r = spawnSync(bin, ['check', '--json', '-q', ...threadArgs, '--timeout', `${timeoutS}`], { input: input + '\n', encoding: 'utf8' });
    best = Math.min(best, performance.now() - t0);
    if (best > ONCE_MS) rep = 3;
    if (r.status === 2) return { ms: best, error: r.stderr.trim().split('\n')[0] };
    const answer = JSON.parse(r.stdout.trim().split('\n')[0]);
    verdict = answer.verdict;
    inner = Math.min(inner, answer.time_ms);
    if (verdict === 'unknown') return { ms: best, timeout: true };
  }
  // Untimed: the solution to compare (`solve` reports the first one it finds).
  const r = spawnSync(bin, ['solve', '--json', '-q', '-j', '1'], { input: input + '\n', encoding: 'utf8' });
  const result = JSON.parse(r.stdout.trim().split('\n')[0]);
  // Our solutions are written in the puzzle's values: 1-9 then A-Z, or from 0 (0-9 then A-Z)
  // for ISS's zero-based shapes (`Shape~9x9~0-8`). ISS's grids hold 1-based values.
  const zeroBased = /Shape~\d+x\d+~0-/.test(input);
  const digits = (s) => [...s].map((ch) => parseInt(ch, 36) + (zeroBased ? 1 : 0));
  return { ms: best, inner, verdict, solution: result.solution ? digits(result.solution) : null };
};

// The least time any process takes, spawned as ours are: `true`, which does nothing (best of
// 50). ISS's solves below it are ones no program run as a process can match.
const floorMs = (() => {
  let least = Infinity;
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    spawnSync('true', [], { input: '\n', encoding: 'utf8' });
    least = Math.min(least, performance.now() - t0);
  }
  return least;
})();

const rows = [];
const inputs = [];
let skipped = 0, unsupported = 0;
for (const p of allPuzzles()) {
  if (filter && !p.name.includes(filter)) continue;
  // Other ISS text forms than constraint strings and killer layouts (pencil-mark grids of
  // 729 characters, sudoku-enum reads them as 27x27 puzzles; jigsaw layouts) are not compared.
  const compact = p.input.replace(/\s+/g, '');
  if (p.input.startsWith('/') || /^[.0-9]{729}$/.test(compact)) { skipped++; continue; }
  const types = [...typesOf(p.input)];
  if (!types.every((t) => SUPPORTED.has(t))) { skipped++; continue; }
  const input = p.input.replace(/\s+/g, '');
  const o = ours(input);
  if (o.error) {
    unsupported++;
    rows.push([p.name, 'ours-refused', '', '', '', '', o.error]);
    continue;
  }
  if (o.timeout) {
    rows.push([p.name, 'ours-timeout', '', '', `>${timeoutS * 1000}`, '', types.filter((t) => t !== 'Container').join(',')]);
    process.stderr.write(`ours-timeout\t\t>${timeoutS}s\t${p.name}\n`);
    continue;
  }
  const i = issCheck(p.input);
  const sameVerdict = i.verdict === o.verdict;
  const sameSolution = i.verdict !== 'unique' || JSON.stringify((i.solution || []).slice(0, (o.solution || []).length)) === JSON.stringify(o.solution);
  const status = sameVerdict && sameSolution ? 'agree' : !sameVerdict ? 'VERDICT-DIFFERS' : 'SOLUTION-DIFFERS';
  rows.push([p.name, status, i.verdict, i.ms.toFixed(2), o.ms.toFixed(2), o.inner.toFixed(2), types.filter((t) => t !== 'Container').join(',')]);
  inputs.push([p.name, input]);
  process.stderr.write(`${status}\t${i.ms.toFixed(1)}\t${o.ms.toFixed(1)}\t${p.name}\n`);
}

writeFileSync(outPath, ['name\tstatus\tverdict\tiss_ms\tours_ms\tours_inner_ms\ttypes', ...rows.map((r) => r.join('\t'))].join('\n') + '\n');
writeFileSync(inputsPath, inputs.map((r) => r.join('\t')).join('\n') + '\n');
const compared = rows.filter((r) => r[1] !== 'ours-refused' && r[1] !== 'ours-timeout');
const timedOut = rows.filter((r) => r[1] === 'ours-timeout');
const agree = compared.filter((r) => r[1] === 'agree').length;
const issTotal = compared.reduce((s, r) => s + +r[3], 0);
const oursTotal = compared.reduce((s, r) => s + +r[4], 0);
const slower = compared.filter((r) => +r[4] > +r[3]);
console.log(`puzzles with only supported types: ${rows.length} (other ISS puzzles skipped: ${skipped})`);
console.log(`refused by sudoku-enum: ${unsupported}`);
console.log(`not finished by sudoku-enum within ${timeoutS} s: ${timedOut.length} (${timedOut.map((r) => r[0]).join('; ')})`);
console.log(`compared: ${compared.length}; same verdict and solution: ${agree}; differing: ${compared.length - agree}`);
const ourThreads = threads === '0' ? 'every core' : `${threads} thread${threads === '1' ? '' : 's'}`;
console.log(`uniqueness checks, total: ISS ${issTotal.toFixed(1)} ms (solve time, warm process, one thread), sudoku-enum ${oursTotal.toFixed(1)} ms (whole processes, ${ourThreads}): ${(issTotal / oursTotal).toFixed(2)}x`);
console.log(`puzzles where sudoku-enum's whole process is slower than ISS's solve: ${slower.length}`);
const belowFloor = slower.filter((r) => +r[3] < floorMs);
console.log(`  of which ISS's solve takes less than a process doing nothing ('true', spawned the same way, ${floorMs.toFixed(2)} ms): ${belowFloor.length}`);
console.log(`  of which sudoku-enum's own time inside its process (reading, set-up, search) is longer than ISS's solve: ${slower.filter((r) => +r[5] > +r[3]).length}`);
for (const r of slower.sort((a, b) => (+b[4] / +b[3]) - (+a[4] / +a[3])).slice(0, 15)) {
  console.log(`  ${r[0]}: ISS ${r[3]} ms, ours ${r[4]} ms (${r[5]} ms inside the process; ${r[6]})`);
}
console.log(`details: ${outPath}; inputs: ${inputsPath}`);
