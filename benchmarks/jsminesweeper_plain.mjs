// JSMinesweeper's own bulk play, plain: the yardstick `benchmarks/jsminesweeper.py --check-speed`
// holds the benchmark's driver to.
//
//     node benchmarks/jsminesweeper_plain.mjs --jsms PATH [--clock frozen|real] BOARDS.jsonl
//
// BOARDS.jsonl holds one board a line: {"rows", "cols", "mines": [[r, c], ...], "start": [r, c],
// "seed"}. Nothing of the driver's harness is used: no protocol, no referee, no loader of ours.
// The <script> tags of JSMinesweeper's index.html are read from the page itself and run in
// their order with vm.runInThisContext, in this process's one realm, as consecutive script tags
// share a page's; main.js (the GUI: it needs a DOM) is left out, and the globals of it the solver
// reads are declared here as main.js declares them. Then every board is played with the loop of
// main.js's bulkRun(), JSMinesweeper's own headless bulk play, and its own ServerGame as the
// referee (the board's mines laid with resetMinesUsingArray, as the page loads a position).
// The only additions: Math.random seeded per board from "seed" (the driver's generator, so that
// both play the same games) and, with --clock frozen, the clock stopped as the driver stops it.
//
// Prints one JSON line: {"won": [true, false, ...], "cpu_seconds": S, "wall_seconds": S}, the
// CPU and wall time of the whole loop (as bulkRun times its run), the scripts' loading outside it,
// and "cpu_each", "wall_each": each game's (the process's CPU, all its threads, during the game).

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

import { seededRandom } from "./jsminesweeper_driver.mjs";

function fail(message) {
    process.stderr.write(`jsminesweeper_plain: ${message}\n`);
    process.exit(2);
}

const argv = process.argv.slice(2);
let jsms = null, clock = "frozen", boardsFile = null;
for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--jsms") jsms = argv[++i];
    else if (argv[i] === "--clock") clock = argv[++i];
    else if (boardsFile === null && !argv[i].startsWith("--")) boardsFile = argv[i];
    else fail(`unknown argument ${argv[i]}`);
}
if (!jsms || !boardsFile) fail("usage: --jsms PATH [--clock frozen|real] BOARDS.jsonl");
if (clock !== "frozen" && clock !== "real") fail("--clock is frozen or real");

// The page's scripts, in the page's order.
const page = fs.readFileSync(path.join(jsms, "index.html"), "utf8");
const scripts = [...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
if (!scripts.includes("Minesweeper/client/solver_main.js")) fail(`${jsms}/index.html: no solver scripts`);

const quiet = () => {};
globalThis.console = { log: quiet, info: quiet, debug: quiet, warn: quiet, error: quiet };
globalThis.showMessage = quiet;
globalThis.sleep = async () => {};
for (const script of scripts.filter((s) => !s.endsWith("/main.js"))) {
    const file = path.join(jsms, script);
    vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
}
// main.js's globals the solver reads, and what its startup() does for the solver.
vm.runInThisContext(
    `const BOMB = 9;
    let analysisMode = false;
    let oldrng = false;
    let board = null;
    let binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
    solver();`,
    { filename: "main.js's globals" },
);
if (clock === "frozen") {
    Date.now = () => 1700000000000;
    performance.now = () => 0;
}

const boards = fs.readFileSync(boardsFile, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

// bulkRun()'s loop from main.js, for the given boards rather than its generator's; the board
// of the game is also the page's current board, which a few solver lines read.
const bulkPlay = vm.runInThisContext(
    `(async function bulkPlay(boards, seededRandom) {
        const options = {};
        options.playStyle = PLAY_STYLE_NOFLAGS;
        options.verbose = false;
        options.advancedGuessing = true;
        options.fullProbability = true;
        options.hardcore = false;

        const results = [];
        for (const spec of boards) {
            const cpu0 = process.cpuUsage();
            const wall0 = process.hrtime.bigint();
            Math.random = seededRandom(spec.seed);
            const array = [spec.cols, spec.rows, spec.mines.length];
            for (const [r, c] of spec.mines) array.push(c, r);
            const game = new ServerGame(0, spec.cols, spec.rows, spec.mines.length, 0, 0, "safe");
            game.resetMinesUsingArray(array);
            board = new Board(0, spec.cols, spec.rows, spec.mines.length, 0, "safe");

            let tile = game.getTile(spec.start[0] * spec.cols + spec.start[1]);
            let revealedTiles = game.clickTile(tile);
            if (revealedTiles.header.status != LOST) applyResults(board, revealedTiles);

            let loopCheck = 0;
            while (revealedTiles.header.status == IN_PLAY) {
                loopCheck++;
                if (loopCheck > 10000) break;
                const reply = await solver(board, options);
                const actions = reply.actions;
                for (let i = 0; i < actions.length; i++) {
                    const action = actions[i];
                    if (action.action == ACTION_CHORD || action.action == ACTION_FLAG) continue;
                    if (i == 0 || action.prob == 1) {
                        tile = game.getTile(board.xy_to_index(action.x, action.y));
                        revealedTiles = game.clickTile(tile);
                        if (revealedTiles.header.status != IN_PLAY) break;
                        applyResults(board, revealedTiles);
                    }
                    if (action.prob != 1) break;
                }
            }
            const cpu = process.cpuUsage(cpu0);
            results.push([revealedTiles.header.status == WON, (cpu.user + cpu.system) / 1e6,
                          Number(process.hrtime.bigint() - wall0) / 1e9]);
        }
        return results;
    })`,
    { filename: "bulkRun's loop (main.js)" },
);

const cpu0 = process.cpuUsage();
const wall0 = process.hrtime.bigint();
const games = await bulkPlay(boards, seededRandom);
const cpu = process.cpuUsage(cpu0);
const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
process.stdout.write(JSON.stringify({
    won: games.map((g) => g[0]), cpu_seconds: (cpu.user + cpu.system) / 1e6, wall_seconds: wall,
    cpu_each: games.map((g) => g[1]), wall_each: games.map((g) => g[2]),
}) + "\n");
