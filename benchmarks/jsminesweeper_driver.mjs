// Plays Minesweeper games with DavidNHill's JSMinesweeper solver, headless under Node.
//
//     node benchmarks/jsminesweeper_driver.mjs --jsms PATH [--clock frozen|real] [--verbose]
//     node benchmarks/jsminesweeper_driver.mjs --jsms PATH --check-bulk-run N [--classic]
//
// PATH is a checkout of https://github.com/DavidNHill/JSMinesweeper; nothing of it is copied
// here. Its browser scripts are run, in index.html's order, in this process's own realm with
// vm.runInThisContext, as consecutive <script> tags run in a page: their top-level classes and
// constants share the realm's one global scope, their functions and vars are properties of its
// global object, and nothing stands between the solver and its globals. (They once ran in a
// vm.createContext sandbox, whose global object routes every global lookup through interceptors:
// JSMinesweeper, which keeps its state and classes in globals, ran 4.4 times slower there than in
// its own plain loop on 200 expert boards. tests/test_benchmark_jsminesweeper.py fails if they
// are sandboxed again; `benchmarks/jsminesweeper.py --check-speed` times this driver against
// that loop, jsminesweeper_plain.mjs.)
// The few browser globals the solver touches are minimal shims on the global object:
// showMessage (a status line), sleep (a yield to the GUI), console (quiet unless --verbose); and
// the globals of main.js it reads are declared as main.js declares them: BOMB = 9,
// analysisMode = false, board (a few solver lines, e.g. in LongTermRiskHelper's 2x2-box check,
// read the page's current board instead of their own; here it is the board of the game being
// played) and the binomial cache main.js builds at start-up. main.js itself (the GUI) is not
// loaded; its bulkRun() is the game loop followed below, move for move. The scripts being this
// realm's globals, the solver is loaded once per process.
//
// Protocol: one JSON object per line on stdin, one reply per line on stdout.
//   request  {"game": 7, "rows": 16, "cols": 30, "mines": [[r, c], ...], "start": [r, c], "seed": 123}
//   reply    {"game": 7, "won": true, "guesses": [[r, c, mine_probability], ...], "clicks": 41,
//             "uncovered": 381, "stalled": false, "cpu_seconds": 0.31, "wall_seconds": 0.30}
// The first line written is {"ready": true, "settings": {...}}: the solver settings in force.
//
// The layout is known only to the referee below, which answers uncover requests the way
// JSMinesweeper's own ServerGame does (a zero opens its neighbours, recursively); the solver
// sees only its Board, filled by JSMinesweeper's applyResults().
//
// Determinism: the solver's only randomness is Math.random in BruteForceAnalysis (Zobrist hash
// keys); it is replaced per game by a generator seeded from the request's "seed". Its only
// clock dependence is in solver_main.js: the guessing heuristic (tie-break) runs only when the
// probability engine took under 50 ms (Date.now). With --clock frozen (the default) the clock
// stands still, so the heuristic always runs, as it does on a fast machine, and every game is a
// pure function of its board and seed. The clock is the realm's: Date.now and performance.now
// stand still for the driver too, which times games with process.cpuUsage and process.hrtime.
// With --clock real the solver sees the real clock, as in a browser: results then depend on
// machine speed and load, and the reply counts "slow_pe", the probability-engine runs that took
// 50 ms or more.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

// The scripts index.html loads, in its order, less main.js (the GUI).
const SCRIPTS = [
    "Minesweeper/client/Board.js",
    "Minesweeper/client/Tile.js",
    "Minesweeper/client/solver_main.js",
    "Minesweeper/client/solver_probability_engine.js",
    "Minesweeper/client/Brute_force.js",
    "Minesweeper/client/BruteForceAnalysis.js",
    "Minesweeper/client/MinesweeperGame.js",
    "Minesweeper/client/SolutionCounter.js",
    "Minesweeper/client/EfficiencyHelper.js",
    "Minesweeper/client/FiftyFiftyHelper.js",
    "Minesweeper/client/LongTermRiskHelper.js",
    "Minesweeper/Utility/PrimeSieve.js",
    "Minesweeper/Utility/Binomial.js",
];

// The options main.js's bulkRun() plays with (its headless bulk-play harness).
const BULK_OPTIONS = {
    playStyle: 2, // PLAY_STYLE_NOFLAGS: flags are never needed to win, and no time is spent on them
    verbose: false,
    advancedGuessing: true, // brute force deep analysis and the guessing heuristic (tie-break)
    fullProbability: true,
    hardcore: false,
};

// bulkRun() gives up on a game after this many solver calls without an end.
const LOOP_LIMIT = 10000;

function parseArgs(argv) {
    const args = { jsms: null, clock: "frozen", verbose: false, check: 0, classic: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === "--jsms") args.jsms = argv[++i];
        else if (a === "--check-bulk-run") args.check = Number(argv[++i]);
        else if (a === "--classic") args.classic = true;
        else if (a === "--clock") args.clock = argv[++i];
        else if (a === "--verbose") args.verbose = true;
        else fail(`unknown argument ${a}`);
    }
    if (!args.jsms) fail("--jsms PATH (a JSMinesweeper checkout) is required");
    if (args.clock !== "frozen" && args.clock !== "real") fail("--clock is frozen or real");
    if (!Number.isInteger(args.check) || args.check < 0) fail("--check-bulk-run takes a number of games");
    return args;
}

function fail(message) {
    process.stderr.write(`jsminesweeper_driver: ${message}\n`);
    process.exit(2);
}

// sfc32: a small, well-mixed generator; the solver only needs distinct 32-bit hash keys.
export function seededRandom(seed) {
    let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
    const next = () => {
        a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
        const t = (a + b | 0) + d | 0;
        d = d + 1 | 0;
        a = b ^ b >>> 9;
        b = c + (c << 3) | 0;
        c = c << 21 | c >>> 11;
        c = c + t | 0;
        return (t >>> 0) / 4294967296;
    };
    for (let i = 0; i < 12; i++) next(); // mix the seed in
    return next;
}

// loadSolver() runs once per process: the scripts declare their classes and constants in the
// realm's one global scope, as the page's <script> tags do, and a second load would redeclare them.
let loaded = false;

export function loadSolver(root, clock = "frozen", verbose = false) {
    if (loaded) throw new Error("loadSolver() runs once per process (its scripts are the realm's globals)");
    loaded = true;
    const quiet = () => {};
    const log = verbose ? (...a) => process.stderr.write(a.join(" ") + "\n") : quiet;
    const slow = { count: 0 };
    // The browser globals the solver calls, on this realm's global object as a page has them.
    // The driver itself writes only through process.stdout and process.stderr.
    globalThis.console = {
        log, info: log, debug: log, warn: log, error: (...a) => process.stderr.write(a.join(" ") + "\n"),
    };
    globalThis.showMessage = verbose ? (text) => log("[message] " + text) : quiet;
    // In the page sleep() lets the GUI repaint; headless there is nothing to wait for.
    globalThis.sleep = async () => {};
    for (const script of SCRIPTS) {
        const file = path.join(root, script);
        let code;
        try {
            code = fs.readFileSync(file, "utf8");
        } catch (e) {
            fail(`cannot read ${file}: is --jsms a JSMinesweeper checkout? (${e.code})`);
        }
        vm.runInThisContext(code, { filename: file });
    }
    // main.js's globals the solver reads, declared as main.js declares them (its startup() builds
    // the binomial cache and initialises the solver): the solution-table code for a mine, the mode
    // (play, not the analysis screen), the page's current board (a few solver lines, e.g. in
    // LongTermRiskHelper's 2x2-box check, read it instead of their own; here it is the board of
    // the game being played) and the random-number choice of MinesweeperGame.js's generator.
    const setBoard = vm.runInThisContext(
        `const BOMB = 9;
        let analysisMode = false;
        let oldrng = false;
        let board = null;
        let binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
        solver();
        (b) => { board = b; }`,
        { filename: "driver-setup (main.js's globals)" },
    );
    if (clock === "frozen") {
        // The realm's clock, the solver's and the driver's alike (the driver times games with
        // process.cpuUsage and process.hrtime, which stay real).
        Date.now = () => 1700000000000;
        performance.now = () => 0;
    } else {
        // Count the probability-engine runs slow enough to switch the guessing heuristic off.
        const prototype = vm.runInThisContext("ProbabilityEngine").prototype;
        const run = prototype.process;
        prototype.process = function (...args) {
            const result = run.apply(this, args);
            if (this.duration >= 50) slow.count++;
            return result;
        };
    }
    const api = vm.runInThisContext(
        `({ Board, solver, applyResults, SolverGlobal, BruteForceGlobal,
            ACTION_CLEAR, ACTION_FLAG, ACTION_CHORD, WON, LOST, IN_PLAY,
            PLAY_STYLE_NOFLAGS, HARD_CUT_OFF, OFF_EDGE_THRESHOLD, PROGRESS_CONTRIBUTION })`,
    );
    api.setRandom = (f) => { Math.random = f; };
    api.setBoard = setBoard;
    api.slow = slow;
    api.clock = clock;
    return api;
}

// The referee: knows the layout, answers clicks in the reply format of ServerGame.clickTile.
class Referee {
    constructor(js, rows, cols, mines) {
        this.js = js;
        this.width = cols;
        this.height = rows;
        this.mine = new Uint8Array(rows * cols);
        for (const [r, c] of mines) this.mine[r * cols + c] = 1;
        this.covered = new Uint8Array(rows * cols).fill(1);
        this.safeLeft = rows * cols - mines.length;
        this.value = new Uint8Array(rows * cols);
        for (let i = 0; i < rows * cols; i++) {
            for (const j of this.adjacent(i)) this.value[i] += this.mine[j];
        }
    }

    *adjacent(index) {
        const x = index % this.width, y = (index - x) / this.width;
        for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
                const nx = x + dx, ny = y + dy;
                if ((dx || dy) && nx >= 0 && nx < this.width && ny >= 0 && ny < this.height) {
                    yield ny * this.width + nx;
                }
            }
        }
    }

    click(index) {
        const reply = { header: {}, tiles: [] };
        if (this.mine[index]) {
            reply.header.status = this.js.LOST;
            return reply;
        }
        const stack = this.covered[index] ? [index] : [];
        if (stack.length) this.covered[index] = 0;
        while (stack.length) {
            const i = stack.pop();
            this.safeLeft--;
            reply.tiles.push({ action: 1, index: i, value: this.value[i] });
            if (this.value[i] === 0) {
                for (const j of this.adjacent(i)) {
                    if (this.covered[j]) {
                        this.covered[j] = 0;
                        stack.push(j);
                    }
                }
            }
        }
        reply.header.status = this.safeLeft === 0 ? this.js.WON : this.js.IN_PLAY;
        return reply;
    }
}

// One game, as bulkRun() plays it: the solver's first action each turn, then its other certain
// clears; a guess (safety below 1) ends the turn. Flags and chords are never requested in the
// no-flag style; they would be ignored, as bulkRun ignores them.
export async function playGame(js, request) {
    const { rows, cols, mines, start, seed } = request;
    js.setRandom(seededRandom(seed));
    js.slow.count = 0;
    const cpu0 = process.cpuUsage();
    const wall0 = process.hrtime.bigint();

    const referee = new Referee(js, rows, cols, mines);
    const board = new js.Board(0, cols, rows, mines.length, 0, "safe");
    js.setBoard(board);
    let result = referee.click(start[0] * cols + start[1]);
    if (result.header.status !== js.LOST) js.applyResults(board, result);

    const guesses = [];
    let clicks = 1;
    let loops = 0;
    let stalled = false;
    while (result.header.status === js.IN_PLAY) {
        if (++loops > LOOP_LIMIT) {
            stalled = true;
            break;
        }
        const reply = await js.solver(board, { ...BULK_OPTIONS });
        const actions = reply.actions;
        for (let i = 0; i < actions.length; i++) {
            const action = actions[i];
            if (action.action === js.ACTION_CHORD || action.action === js.ACTION_FLAG) continue;
            if (i === 0 || action.prob === 1) {
                if (action.prob !== 1) {
                    const mine = typeof action.prob === "number" ? 1 - action.prob : null;
                    guesses.push([action.y, action.x, mine]);
                }
                clicks++;
                result = referee.click(board.xy_to_index(action.x, action.y));
                if (result.header.status !== js.IN_PLAY) break;
                js.applyResults(board, result);
            }
            if (action.prob !== 1) break;
        }
    }

    const cpu = process.cpuUsage(cpu0);
    const reply = {
        game: request.game,
        won: result.header.status === js.WON,
        guesses,
        clicks,
        uncovered: rows * cols - mines.length - referee.safeLeft,
        stalled,
        cpu_seconds: (cpu.user + cpu.system) / 1e6,
        wall_seconds: Number(process.hrtime.bigint() - wall0) / 1e9,
    };
    if (js.clock === "real") reply.slow_pe = js.slow.count;
    return reply;
}

function settings(js, clock) {
    const g = js.SolverGlobal, b = js.BruteForceGlobal;
    return {
        options: BULK_OPTIONS,
        clock,
        PRUNE_GUESSES: g.PRUNE_GUESSES,
        EARLY_FIFTY_FIFTY_CHECKING: g.EARLY_FIFTY_FIFTY_CHECKING,
        CALCULATE_LONG_TERM_SAFETY: g.CALCULATE_LONG_TERM_SAFETY,
        REUSE_BRUTE_FORCE_ANALYSIS: g.REUSE_BRUTE_FORCE_ANALYSIS,
        PLAY_BFDA_THRESHOLD: b.PLAY_BFDA_THRESHOLD,
        BRUTE_FORCE_ANALYSIS_MAX_NODES: b.BRUTE_FORCE_ANALYSIS_MAX_NODES,
        BRUTE_FORCE_CYCLES_THRESHOLD: b.BRUTE_FORCE_CYCLES_THRESHOLD,
        PRUNE_BF_ANALYSIS: b.PRUNE_BF_ANALYSIS,
        INCLUDE_DEAD_TOP_TILES: b.INCLUDE_DEAD_TOP_TILES,
        HARD_CUT_OFF: js.HARD_CUT_OFF,
        OFF_EDGE_THRESHOLD: js.OFF_EDGE_THRESHOLD,
        PROGRESS_CONTRIBUTION: js.PROGRESS_CONTRIBUTION,
    };
}

// --check-bulk-run N: JSMinesweeper's own bulkRun(0, N, modern), run verbatim from main.js on
// expert boards of its own generator (seed 0; modern: opening at (3,3); --classic: safe start in
// the corner), against this driver's loop on the same layouts. Prints how many outcomes agree.
async function checkBulkRun(args) {
    const logged = [];
    const js = loadSolver(args.jsms, args.clock, args.verbose);
    console.log = (...a) => logged.push(a.join(" "));
    const file = path.join(args.jsms, "Minesweeper/client/main.js");
    const main = fs.readFileSync(file, "utf8");
    const start = main.indexOf("async function bulkRun(");
    const end = main.indexOf("\nasync function ", start + 1);
    if (start < 0 || end < 0) fail(`${file}: no bulkRun() found`);
    const bulkRun = vm.runInThisContext(`(${main.slice(start, end)})`, { filename: file });
    const modern = !args.classic;
    const n = args.check;
    const [startIndex, type] = modern ? [93, "zero"] : [0, "safe"];
    // The layouts bulkRun will play: the same JSF stream and ServerGame it uses.
    const layouts = vm.runInThisContext(
        `(() => {
            const rng = JSF(0), out = [];
            for (let k = 0; k < ${n}; k++) {
                const seed = Math.round(rng() * Number.MAX_SAFE_INTEGER);
                const game = new ServerGame(0, 30, 16, 99, ${startIndex}, seed, "${type}");
                out.push(game.tiles.filter((t) => t.is_bomb).map((t) => [Math.floor(t.index / 30), t.index % 30]));
            }
            return out;
        })()`,
    );
    js.setBoard(new js.Board(0, 30, 16, 99, 0, type)); // in the page: the expert board on screen
    js.setRandom(seededRandom(0));
    await bulkRun(0, n, modern);
    const theirs = logged.filter((l) => l.startsWith("Seed ")).map((l) => l.includes(" result won,"));
    if (theirs.length !== n) fail(`bulkRun reported ${theirs.length} games, not ${n}`);
    let same = 0, ours = 0;
    for (let k = 0; k < n; k++) {
        const reply = await playGame(js, {
            game: k, rows: 16, cols: 30, mines: layouts[k], start: modern ? [3, 3] : [0, 0], seed: k,
        });
        same += reply.won === theirs[k];
        ours += reply.won;
    }
    const won = theirs.filter(Boolean).length;
    process.stdout.write(
        `${n} ${modern ? "modern" : "classic"} expert games (JSMinesweeper seed 0): bulkRun won ${won}, ` +
        `this driver won ${ours}; same outcome in ${same}/${n}\n`,
    );
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    if (args.check) return checkBulkRun(args);
    const js = loadSolver(args.jsms, args.clock, args.verbose);
    process.stdout.write(JSON.stringify({ ready: true, settings: settings(js, args.clock) }) + "\n");
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        if (!line.trim()) continue;
        const reply = await playGame(js, JSON.parse(line));
        process.stdout.write(JSON.stringify(reply) + "\n");
    }
}

// Run as a program, not when imported (a cross-check can import loadSolver and playGame).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
    main().catch((e) => fail(e && e.stack ? e.stack : String(e)));
}
