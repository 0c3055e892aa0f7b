// The trace viewer in a real browser (headless Chromium driven by playwright-core):
// opens a page written by `mpisim run --html`, checks that the lanes, arrows and
// cells are there in the right numbers, that hovering an arrow shows the message's
// details, that playback steps through the messages, and that the page loads
// nothing from the network; saves a screenshot.
// Usage: node viewer_test.cjs PAGE.html TRACE.json SCREENSHOT.png
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

(async () => {
  const [page_file, trace_file, shot] = process.argv.slice(2);
  const trace = JSON.parse(fs.readFileSync(trace_file, "utf8"));
  let passed = 0, failed = 0;
  const check = (ok, what) => {
    if (ok) ++passed;
    else { ++failed; console.log("FAILED: " + what); }
  };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const external = [];
  page.on("request", r => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) external.push(r.url()); });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  await page.goto("file://" + path.resolve(page_file));

  const ranks = Math.min(trace.scenario.ranks, 64);
  // The page shows this run: its name, ranks and outcome in the header, the time
  // the run took (an erroneous run's too: the time it stopped).
  const meta = await page.textContent("#meta");
  check(meta.includes(`${trace.scenario.ranks} ranks`) && meta.includes(trace.summary.outcome), `the header names the run ("${meta}")`);
  const stopped = Math.max(0, ...trace.diagnostics.map(d => d.time_ps ?? 0));
  check(trace.summary.makespan_ps >= stopped, `the makespan (${trace.summary.makespan_ps} ps) is not before the last diagnostic (${stopped} ps)`);
  const errorsMarked = trace.diagnostics.filter(d => d.severity !== "warning" && d.time_ps !== undefined).length;
  check(errorsMarked === 0 || await page.locator(".error-mark").count() > 0, "an error of the run is marked on the diagram");
  check(await page.locator(".lane").count() === ranks, `${ranks} lanes`);
  const messages = trace.messages.filter(m => m.src < ranks && m.dst < ranks).length;
  check(await page.locator(".msg").count() === messages, `${messages} message arrows`);
  const calls = trace.calls.filter(c => c.rank < ranks).length;
  check(await page.locator(".call").count() === calls, `${calls} call bars`);
  let cells = 0;
  for (const s of trace.snapshots) {
    const d = s.data;
    const values = d.values ?? d.members ?? (d.value !== undefined ? [d.value] : []);
    cells += Math.min((values || []).length, 512);
  }
  check(await page.locator(".cell").count() === cells, `${cells} buffer cells`);
  // Honest provenance: an element combined from several ranks is drawn as combined
  // and its tooltip lists them all.
  const combinedTrace = JSON.parse(JSON.stringify(trace));
  combinedTrace.snapshots = [{ rank: 1, step: 3, time_ps: 5, buffer: "sum",
                               data: { type: "MPI_INT", count: 3, values: [6, 6, 1], origins: [-3, -2, 1],
                                       combined: [{ origin: -2, ranks: [0, 1, 2, 3] },
                                                  { origin: -3, ranks: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] }] } }];
  await page.evaluate(t => load(t), combinedTrace);
  check(await page.locator(".cell.combined").count() === 2, "elements combined from several ranks are drawn as combined");
  check(await page.locator(".cell").nth(0).getAttribute("title") === "combined from ranks 0..15 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)",
        "a combined element's tooltip lists its ranks (0..15)");
  check((await page.locator(".cell").nth(1).getAttribute("title")).startsWith("combined from ranks 0+1+2+3"),
        "a few ranks read as 0+1+2+3");
  check(await page.locator(".cell").nth(2).getAttribute("title") === "from rank 1", "a single rank's element keeps its colour");
  check(await page.locator(".legend .combined").count() === 1, "the legend names the combined colour");
  // Values that stand for MPI constants read as their names (a translate_ranks result).
  const named = JSON.parse(JSON.stringify(trace));
  named.snapshots = [{ rank: 0, step: 2, time_ps: 0, buffer: "in_b",
                       data: { values: [-32766, 3, -1], names: ["MPI_UNDEFINED", null, "MPI_PROC_NULL"] } },
                     { rank: 0, step: 3, time_ps: 0, buffer: "r", data: { value: 1, name: "MPI_CONGRUENT" } }];
  await page.evaluate(t => load(t), named);
  const texts = await page.locator(".cell").allTextContents();
  check(texts.join(",") === "MPI_UNDEFINED,3,MPI_PROC_NULL,MPI_CONGRUENT", `named values print as names (${texts})`);
  check(await page.locator(".cell").nth(0).getAttribute("title") === "MPI_UNDEFINED (-32766)", "a name's tooltip gives its number");
  // A buffer shown with a shape: a grid of rows x columns, its cells coloured by origin.
  const shaped = JSON.parse(JSON.stringify(trace));
  shaped.snapshots = [{ rank: 1, step: 4, time_ps: 9, buffer: "a",
                        data: { type: "MPI_INT", count: 6, shape: [2, 3], values: [-1, 7, -1, -1, 8, -1], origins: [1, 0, 1, 1, 0, 1] } }];
  await page.evaluate(t => load(t), shaped);
  check(await page.locator("svg.shaped").count() === 1, "a shaped buffer is drawn as a grid");
  check(await page.locator("svg.shaped .gcell").count() === 6, "one cell per element (2 x 3)");
  await page.locator("svg.shaped").scrollIntoViewIfNeeded();
  const cellBox = await page.locator("svg.shaped .gcell").nth(4).boundingBox();
  await page.mouse.move(cellBox.x + cellBox.width / 2, cellBox.y + cellBox.height / 2);
  const gridTip = await page.textContent("#tooltip");
  check(gridTip.startsWith("a[1][1] (element 4) = 8") && gridTip.includes("from rank 0"), `a grid cell's tooltip gives its place, value and origin ("${gridTip}")`);
  // A followed buffer: one block that shows the record playback has reached.
  const follow = JSON.parse(JSON.stringify(trace));
  follow.messages = [{ id: 0, src: 0, dst: 1, channel: 0, tag: 0, bytes: 4, send_ps: 0, arrival_ps: 2000 }];
  follow.calls = [];
  follow.snapshots = [
    { rank: 1, step: 0, time_ps: 0, buffer: "r", data: { follow: "declared", type: "MPI_INT", count: 2, values: [-1, -1], origins: [1, 1] } },
    { rank: 1, step: 2, time_ps: 2000, buffer: "r", data: { follow: "MPI_Recv", type: "MPI_INT", count: 2, values: [7, -1], origins: [0, 1] } },
    { rank: 1, step: 3, time_ps: 2000, buffer: "r", data: { type: "MPI_INT", count: 2, values: [7, -1], origins: [0, 1] } }];
  await page.evaluate(t => load(t), follow);
  check(await page.locator(".followed").count() === 1, "a followed buffer has one block (its show snapshot is among its records)");
  check(await page.locator(".snapshot").count() === 0, "no separate block for the followed buffer's show");
  check((await page.locator(".followed .cell").first().textContent()) === "7", "after the run the block shows the last record");
  await page.click("#reset");
  check((await page.locator(".followed .cell").first().textContent()) === "-1", "after reset it shows the buffer as declared");
  await page.click("#step");
  check((await page.locator(".followed .cell").first().textContent()) === "7", "stepping to the message shows the buffer after the receive");
  // Playback never runs ahead: a message sent later that arrives earlier holds back
  // the records its arrival made until it is shown.
  const crossing = JSON.parse(JSON.stringify(follow));
  crossing.messages = [{ id: 0, src: 0, dst: 1, channel: 0, tag: 0, bytes: 4, send_ps: 0, arrival_ps: 5000 },
                       { id: 1, src: 0, dst: 1, channel: 1, tag: 0, bytes: 4, send_ps: 10, arrival_ps: 2000 }];
  await page.evaluate(t => load(t), crossing);
  await page.click("#reset");
  await page.click("#step");
  check((await page.locator(".followed .cell").first().textContent()) === "-1",
        "after the first message, a record made by the second (sent later, arrived earlier) is not shown yet");
  await page.click("#step");
  check((await page.locator(".followed .cell").first().textContent()) === "7", "after the second it is");
  // A call with a derived type highlights the elements it touches in the buffer.
  const touching = JSON.parse(JSON.stringify(trace));
  touching.datatypes = [{ name: "every_other", type: "every_other", size: 8, extent: 16, lb: 0, ub: 16, true_lb: 0, true_ub: 12,
                          lb_marker: false, ub_marker: true, ranks: [0],
                          blocks: [{ offset: 0, length: 4, basic: "MPI_INT", count: 1 }, { offset: 8, length: 4, basic: "MPI_INT", count: 1 }] }];
  touching.snapshots = [{ rank: 0, step: 2, time_ps: 0, buffer: "a",
                          data: { type: "MPI_INT", count: 6, element_size: 4, values: [0, 1, 0, 2, 0, 0], origins: [0, 1, 0, 1, 0, 0] } }];
  touching.messages = [];
  touching.calls = [{ rank: 0, step: 1, call: "MPI_Recv", start_ps: 0, end_ps: 1000,
                      args: { path: "/program/1", buf: "a+1", buf_offset_bytes: 4, count: 1, datatype: "every_other" } }];
  await page.evaluate(t => load(t), touching);
  await page.locator(".call").first().hover({ force: true });
  const touched = await page.locator(".cell").evaluateAll(cs => cs.map((c, i) => c.classList.contains("touched") ? i : -1).filter(i => i >= 0).join(","));
  check(touched === "1,3", `hovering the call highlights the elements its datatype touches (${touched})`);
  // Notes: the scenario's and each step's, in a panel and as a mark on the step's first call.
  const noted = JSON.parse(JSON.stringify(trace));
  noted.scenario.source = { note: "the whole lesson", program: [{ buffer: "x", type: "MPI_INT", count: 1, note: "a buffer" },
                                                               { repeat: 2, program: [{ call: "MPI_Barrier", note: "twice" }] }] };
  noted.calls = [{ rank: 0, step: 0, call: "MPI_Barrier", start_ps: 0, end_ps: 100, args: { path: "/program/1/program/0" } },
                 { rank: 1, step: 0, call: "MPI_Barrier", start_ps: 0, end_ps: 100, args: { path: "/program/1/program/0" } }];
  await page.evaluate(t => load(t), noted);
  check(await page.locator("#notes p").count() === 3, "the scenario's note and both step notes are listed");
  check(await page.locator('.step-note[data-path="/program/1/program/0"]').textContent() === "/program/1/program/0 MPI_Barriertwice",
        "a step note names its step");
  check(await page.locator(".note-mark").count() === 1, "a step's note is marked once on the diagram");
  check((await page.locator(".call").first().locator("title").textContent()).endsWith("note: twice"), "the call's tooltip carries the note");
  // Datatypes drawn: a struct of double, int and char (size 13, extent 16: three
  // bytes of padding) and an int between explicit bounds (MPI_LB -4, MPI_UB 20).
  const typed = JSON.parse(JSON.stringify(trace));
  typed.datatypes = [
    { name: "record", type: "record", size: 13, extent: 16, lb: 0, ub: 16, true_lb: 0, true_ub: 13, lb_marker: false,
      ub_marker: false, ranks: [0], blocks: [{ offset: 0, length: 8, basic: "MPI_DOUBLE", count: 1 },
                                             { offset: 8, length: 4, basic: "MPI_INT", count: 1 },
                                             { offset: 12, length: 1, basic: "MPI_CHAR", count: 1 }] },
    { name: "marked", type: "marked", size: 4, extent: 24, lb: -4, ub: 20, true_lb: 0, true_ub: 4, lb_marker: true,
      ub_marker: true, ranks: [0], blocks: [{ offset: 0, length: 4, basic: "MPI_INT", count: 1 }] }];
  await page.evaluate(t => load(t), typed);
  check(await page.locator(".dt-ruler").count() === 2, "one ruler per datatype");
  const record = page.locator('.dt-ruler[data-type="record"]');
  check(await record.locator(".dt-block").count() === 3, "the struct's three blocks");
  const packs = await record.locator(".dt-block").evaluateAll(rs => rs.map(r => r.getAttribute("data-pack")).join(","));
  check(packs === "1,2,3", "blocks numbered in pack order (" + packs + ")");
  const b1 = await record.locator(".dt-block").nth(0).boundingBox(), b2 = await record.locator(".dt-block").nth(1).boundingBox();
  const bounds = await record.locator(".dt-bound").evaluateAll(ls => ls.slice(0, 2).map(l => Number(l.getAttribute("x1"))));
  check(b1 && b2 && Math.abs((b2.x - b1.x) / (bounds[1] - bounds[0]) - 0.5) < 0.01, "the int starts half way from lb to ub (byte 8 of 16)");
  check(await record.locator(".dt-pad").count() === 1, "the struct's padding between its data and ub is drawn");
  check(await record.locator(".dt-marker").count() === 0, "no explicit bound on the struct");
  const marked = page.locator('.dt-ruler[data-type="marked"]');
  check(await marked.locator(".dt-marker").count() === 2, "MPI_LB and MPI_UB marked");
  check((await marked.textContent()).includes("lb -4") && (await marked.textContent()).includes("ub 20"), "the bounds are labelled");
  await page.evaluate(t => load(t), trace);
  if (trace.snapshots.length && trace.snapshots[0].data.origins) {
    // A cell from another rank is coloured like that rank's lane.
    const origin = trace.snapshots[trace.snapshots.length - 1].data.origins[0];
    const title = await page.locator(".grid").last().locator(".cell").first().getAttribute("title");
    check(origin <= -2 ? title.startsWith("combined from ") : title === `from rank ${origin}`,
          `a cell names the rank its element came from (${origin})`);
  }

  if (messages > 0) {
    const first = page.locator(".msg").first();
    await first.hover({ force: true });
    const tip = page.locator("#tooltip");
    check(await tip.isVisible(), "hovering an arrow shows a tooltip");
    const text = await tip.textContent();
    check(/bytes, tag/.test(text) && /sent/.test(text) && /arrived/.test(text), "the tooltip gives bytes, tag and times");

    await page.click("#reset");
    check((await page.textContent("#progress")).startsWith(`0 / ${messages}`), "reset hides every message");
    const later = trace.snapshots.filter(s => s.time_ps > 0).length;
    check(await page.locator(".snapshot.future").count() === later, `after reset the ${later} snapshots taken later are faint`);
    check(await page.locator(".msg.hidden").count() === messages, "no arrow shown after reset");
    await page.click("#step");
    check((await page.textContent("#progress")).startsWith(`1 / ${messages}`), "step shows one message");
    check(await page.locator(".msg:not(.hidden)").count() === 1, "one arrow shown after a step");
    await page.click("#play");
    await page.waitForFunction(n => document.querySelectorAll(".msg:not(.hidden)").length === n, messages,
                               { timeout: 20000 });
    check(true, "play shows every message in turn");
    check(await page.locator(".snapshot.future").count() === 0, "at the end of playback every snapshot is shown");
  }
  // Playback of one collective call's messages.
  const options = await page.locator("#which option").count();
  const instances = new Set(trace.messages.filter(m => m.collective !== undefined).map(m => m.channel + ":" + m.collective));
  check(options === instances.size + 1, `one playback choice per collective call (${instances.size})`);
  if (instances.size > 0) {
    // Named after the call its first message's sender made, when the trace has it
    // (a run stopped by an error may have recorded none).
    const sorted = trace.messages.filter(m => m.collective !== undefined && m.src < ranks && m.dst < ranks)
                                 .sort((a, b) => a.send_ps - b.send_ps || a.id - b.id);
    const firstSent = sorted[0];
    if (trace.calls.some(c => c.rank === firstSent.src && c.start_ps <= firstSent.send_ps)) {
      const named = await page.locator("#which option").nth(1).textContent();
      check(/^MPI_\w+, collective call #[1-9]/.test(named), `a collective's playback choice names its call ("${named}")`);
    }
    const key = [...instances][0];
    const count = trace.messages.filter(m => m.channel + ":" + m.collective === key).length;
    await page.selectOption("#which", key);
    // The page redraws after the change event: wait for it rather than race it.
    const alone = await page.waitForFunction(c => document.querySelector("#progress").textContent.startsWith(`0 / ${c}`),
                                             count, { timeout: 5000 }).then(() => true, () => false);
    check(alone, `a collective's ${count} messages alone`);
    // Choosing another selection stops a running playback: nothing appears on its own.
    await page.selectOption("#which", "");
    await page.click("#play");
    await page.selectOption("#which", key);
    await page.waitForTimeout(700);
    const progress = await page.textContent("#progress");
    check(progress.startsWith(`0 / ${count}`), `a new selection stops playback (shows "${progress}")`);
  }
  // The per-link view of topology runs, from a trace that carries link loads.
  const withLinks = JSON.parse(JSON.stringify(trace));
  withLinks.links = [{ id: 0, name: "node0->switch", messages: 2, bytes: 4096, busy_ps: 3276800 },
                     { id: 1, name: "switch->node1", messages: 1, bytes: 1024, busy_ps: 819200 }];
  await page.evaluate(t => load(t), withLinks);
  check(await page.locator("#links tr").count() === 2, "the link view lists every link");
  // A call bar too thin to point at, under an arrow: its target is over the arrow.
  const thin = JSON.parse(JSON.stringify(trace));
  thin.calls = [{ rank: 0, call: "MPI_Scatterv", start_ps: 0, end_ps: 1, args: {} },
                { rank: 1, call: "MPI_Recv", start_ps: 0, end_ps: 1000000, args: {} }];
  thin.messages = [{ id: 0, src: 0, dst: 1, channel: 0, tag: 0, bytes: 4, send_ps: 0, arrival_ps: 1000000 }];
  thin.diagnostics = [];
  await page.evaluate(t => load(t), thin);
  await page.locator(".call").first().scrollIntoViewIfNeeded();
  const bar = await page.locator(".call").first().boundingBox();
  const atBar = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.getAttribute("class"), [bar.x + bar.width / 2, bar.y + bar.height / 2]);
  check(atBar === "call-hit" || atBar === "call", `a thin call bar can be pointed at under an arrow (found "${atBar}" at ${JSON.stringify(bar)})`);
  // Snapshots read in time order, and the ranks of one moment in increasing order.
  const shows = JSON.parse(JSON.stringify(trace));
  shows.snapshots = [3, 2, 1, 0].map(r => ({ rank: r, step: 5, time_ps: 100, buffer: "out", data: { values: [r] } }))
                     .concat([1, 0].map(r => ({ rank: r, step: 2, time_ps: 0, buffer: "in", data: { values: [r] } })));
  await page.evaluate(t => load(t), shows);
  const order = await page.locator(".snapshot").evaluateAll(bs => bs.map(b => b.dataset.buffer + b.dataset.rank).join(","));
  check(order === "in0,in1,out0,out1,out2,out3", `snapshots in time and rank order (${order})`);
  // A datatype's blocks are not drawn in the ranks' colours.
  const rankColours = await page.evaluate(() => palette.map(c => c.toLowerCase()));
  await page.evaluate(t => load(t), typed);
  const blockColours = await page.locator(".dt-block").evaluateAll(rs => rs.map(r => r.getAttribute("fill").toLowerCase()));
  check(blockColours.length > 0 && blockColours.every(c => !rankColours.includes(c)), "datatype blocks have colours of their own");
  // Calls of one collective that ran different algorithms: the summary names each.
  const twoAlgorithms = JSON.parse(JSON.stringify(trace));
  twoAlgorithms.calls = [{ rank: 0, call: "MPI_Allreduce", start_ps: 0, end_ps: 10, algorithm: "ring" },
                         { rank: 1, call: "MPI_Allreduce", start_ps: 0, end_ps: 10, algorithm: "ring" },
                         { rank: 0, call: "MPI_Allreduce", start_ps: 20, end_ps: 30, algorithm: "recursive_doubling" }];
  twoAlgorithms.summary = { ...twoAlgorithms.summary, calls: { MPI_Allreduce: { count: 3, total_ps: 30, max_ps: 10 } } };
  twoAlgorithms.algorithms = { MPI_Allreduce: ["ring", "recursive_doubling"] };
  await page.evaluate(t => load(t), twoAlgorithms);
  const allreduceRow = await page.locator("#summary tr", { hasText: "MPI_Allreduce" }).textContent();
  check(allreduceRow.includes("algorithms ring ×2, recursive_doubling ×1"), `each algorithm a collective ran is named ("${allreduceRow}")`);
  // A nonblocking collective: its call bar, and a bar from the call to the operation's completion.
  const nonblocking = JSON.parse(JSON.stringify(trace));
  nonblocking.calls = [{ rank: 0, call: "MPI_Ibcast", start_ps: 0, end_ps: 0, completed_ps: 5000000, algorithm: "binomial" },
                       { rank: 0, call: "MPI_Wait", start_ps: 1000000, end_ps: 5000000 }];
  await page.evaluate(t => load(t), nonblocking);
  check(await page.locator(".operation").count() === 1, "a nonblocking call's operation is drawn from its start to its completion");
  const op = await page.locator(".operation").first().boundingBox();
  const wait = await page.locator(".call").nth(1).boundingBox();
  check(op && wait && Math.abs(op.x + op.width - (wait.x + wait.width)) < 2, "the operation's bar ends where its wait ends");
  // Readable channel names in the playback choices.
  if (instances.size > 0) {
    const label = await page.locator("#which option").nth(1).textContent();
    check(/communicator .*, collective traffic/.test(label) && !label.includes("/collective"),
          `a collective's channel reads as words ("${label}")`);
  }
  // A local call is a tick; an erroneous run marks the error on the lanes of the
  // ranks it names, at its time.
  const erroneous = JSON.parse(JSON.stringify(trace));
  erroneous.calls = [{ rank: 0, call: "MPI_Comm_rank", start_ps: 1000, end_ps: 1000 },
                     { rank: 0, call: "MPI_Send", start_ps: 2000, end_ps: 9000 }];
  erroneous.diagnostics = [{ severity: "error", code: "DEADLOCK", message: "2 ranks blocked forever", time_ps: 9000,
                             detail: ["  rank 0 blocked in MPI_Recv (/program/1)", "  rank 1 blocked in MPI_Recv (/program/1)"] },
                           { severity: "warning", code: "ERRHANDLER_RETURN", message: "returned", time_ps: 100, rank: 0 }];
  await page.evaluate(t => load(t), erroneous);
  check(await page.locator(".call.tick").count() === 1, "a local call is drawn as a tick");
  check(await page.locator(".error-mark").count() === Math.min(2, ranks), "the deadlock is marked on both blocked ranks' lanes");
  if (ranks >= 2) {
    const lane1 = await page.locator(".lane").nth(1).boundingBox();
    const mark1 = await page.locator('.error-mark[data-rank="1"] circle').boundingBox();
    check(lane1 && mark1 && Math.abs(mark1.y + mark1.height / 2 - lane1.y) < 2, "rank 1's mark sits on rank 1's lane");
  }
  // Tooltips stay inside the window, even at its corner.
  const inside = await page.evaluate(() => {
    const tip = document.getElementById("tooltip");
    tip.textContent = "message 0: rank 0 → rank 1\n4096 bytes, tag 7, communicator MPI_COMM_WORLD, point-to-point traffic";
    tip.style.display = "block";
    placeTip(tip, { clientX: window.innerWidth - 3, clientY: window.innerHeight - 3 });
    const r = tip.getBoundingClientRect();
    tip.style.display = "none";
    return r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
  });
  check(inside, "a tooltip near the window's corner stays inside it");
  check(external.length === 0, "no network requests: " + external.join(", "));
  check(errors.length === 0, "no script errors: " + errors.join("; "));
  await page.evaluate(t => load(t), trace);  // the screenshot shows the run itself
  await page.screenshot({ path: shot, fullPage: true });
  await browser.close();
  console.log(`viewer: ${passed} passed, ${failed} failed (screenshot ${shot})`);
  process.exit(failed === 0 ? 0 : 1);
})().catch(e => { console.log("viewer test crashed: " + e); process.exit(1); });
