/**
 * Standard output of each bench run with `--json`, recorded from real runs
 * at small sizes (the command is above each), for the parsing tests.
 *
 * @module
 */

/** `bench/hash_compare.ts --size=8 --md5-size=1 --reps=3 --json` */
export const HASH: string =
  `hashline bench: 8 MiB source-like input, 244357 lines (34.3 bytes each on average, 1.2% with non-ASCII), deno 2.9.6 (V8 15.0.245.2-rusty)
                                         best GB/s  median GB/s  Wasm is (best, median)
hashLines, Wasm (SIMD)                       1.096        1.062  
hashLines, TypeScript twin                   0.512        0.332  2.14× 3.20×
MD5 per line, node:crypto (first 1 MiB)      0.007        0.006  166.82× 163.74×
(best of 3 Wasm runs, 2 TypeScript runs, 3 MD5 runs; each run hashes the whole input into a fresh result)
of a best Wasm run's 8 ms, 0.1 ms is copying its 244357 results into a fresh array
RESULT {"bench":"hash","runtime":"deno 2.9.6 (V8 15.0.245.2-rusty)","sizeMiB":8,"md5MiB":1,"lines":244357,"reps":3,"wasm":{"best":1.0960149521769298,"median":1.06228478515238},"ts":{"best":0.5124864617586241,"median":0.3321053708204908},"md5":{"best":0.006569953188356731,"median":0.0064875113568849015},"copyMs":0.12121700000011515}
`;

/** `bench/native/compare.ts --size=8 --reps=3 --json` */
export const NATIVE: string =
  `hashline native bench: 8 MiB source-like input (bench/hash_compare.ts), 244357 lines, deno 2.9.6 (V8 15.0.245.2-rusty); native answers equal hashLines byte for byte
                                                           best GB/s  median GB/s  Wasm is (best, median)
native AVX2 kernel alone (input in place, results reused)      1.517        1.493  0.73× 0.71×
native, copy in + kernel + results into fresh memory           1.092        1.063  1.01× 1.00×
hashLines, Wasm (copy into Wasm memory, fresh result)          1.102        1.063  
(3 runs each; native times are taken inside the C program around the named steps; Wasm times around each hashLines call)
RESULT {"bench":"native","runtime":"deno 2.9.6 (V8 15.0.245.2-rusty)","sizeMiB":8,"lines":244357,"reps":3,"kernel":{"best":1.516990124907523,"median":1.4931938932297786},"endToEnd":{"best":1.092011153119511,"median":1.0627202755068585},"wasm":{"best":1.1021349360517925,"median":1.0633586794417513}}
`;

/** `bench/workspace_huge.ts --size=16 --json` */
export const HUGE: string = `
file: /repo/bench/.data/huge-16m.ts (0.02 GiB), lines 221920–222120
operation                           wall ms  in-process ms  peak MiB   detail
wc -l (whole file)                        0              -       1.7   462636 /repo/bench/.data/huge-16m.ts
Deno start-up alone                      90              0      47.0   a Deno process that does nothing
Deno reading every byte alone           100              4      48.5   16777175 bytes read in 1 MiB chunks, nothing else
workspace.read, first read              260            154     126.0   lines 221920–222120 of 462636
workspace.read, indexed                 250            124     126.3   lines 221920–222120 of 462636
CLI read process, first read            360              -     127.3   222120:c5|
CLI read process, indexed               230              -     127.1   222120:c5|
workspace.patch one line                510            395     233.6   Edited huge-16m.ts (+1 -1); patch alone 258 ms
write floor: copy + flush               160             61      48.6   16777175 bytes copied beside the file and flushed
naive read-all + split                  240            134     146.1   lines 221920–222120 of 462636

read vs naive (in-process): first read 0.9×, indexed 1.1× faster (target ≥ 50×)
CLI read process vs wc -l: first read Infinity×, indexed Infinity× the time of wc -l (target ≤ 1×)
a first read reads every byte (totalLines, UTF-8 check): a Deno process doing only that takes Infinity× the time of wc -l (start-up alone Infinity×)
one-line patch vs the write floor (copy + flush): 5.4× the floor's time (patch alone 258 ms, floor 48 ms)
peak memory of read and patch: 233.6 MiB (target < 100)
RESULT {"bench":"huge","fileBytes":16777175,"offset":221920,"limit":201,"measures":{"wc":{"name":"wc -l (whole file)","wallMs":0,"peakMiB":1.671875,"detail":"462636 /repo/bench/.data/huge-16m.ts"},"start":{"name":"Deno start-up alone","wallMs":90,"innerMs":0.02140099999999734,"peakMiB":46.96875,"detail":"a Deno process that does nothing"},"bytes":{"name":"Deno reading every byte alone","wallMs":100,"innerMs":3.71841400000001,"peakMiB":48.51953125,"detail":"16777175 bytes read in 1 MiB chunks, nothing else"},"apiCold":{"name":"workspace.read, first read","wallMs":260,"innerMs":154.32526000000001,"peakMiB":126,"detail":"lines 221920–222120 of 462636"},"apiWarm":{"name":"workspace.read, indexed","wallMs":250,"innerMs":123.747513,"peakMiB":126.34375,"detail":"lines 221920–222120 of 462636"},"cliCold":{"name":"CLI read process, first read","wallMs":360,"peakMiB":127.3046875,"detail":"222120:c5|"},"cliWarm":{"name":"CLI read process, indexed","wallMs":230,"peakMiB":127.12890625,"detail":"222120:c5|"},"patch":{"name":"workspace.patch one line","wallMs":510,"innerMs":394.580257,"opMs":257.67086,"peakMiB":233.62890625,"detail":"Edited huge-16m.ts (+1 -1); patch alone 258 ms"},"floor":{"name":"write floor: copy + flush","wallMs":160,"innerMs":61.031150999999994,"opMs":47.998949999999994,"peakMiB":48.63671875,"detail":"16777175 bytes copied beside the file and flushed"},"naive":{"name":"naive read-all + split","wallMs":240,"innerMs":134.157576,"peakMiB":146.14453125,"detail":"lines 221920–222120 of 462636"}}}
`;

/** `bench/store_bench.ts --revisions 500 --samples 50 --json` */
export const STORE: string =
  `| backend  | revisions | operation                  |  n | p50 ms | p99 ms | mean ms |
|----------|-----------|----------------------------|---:|-------:|-------:|--------:|
| file     | 500       | put (new source)           | 50 |  6.200 | 13.775 |   6.279 |
| file     | 500       | put (already stored)       | 50 |  0.724 |  1.748 |   0.774 |
| file     | 500       | get by handle (re-hashed)  | 50 |  0.528 |  1.194 |   0.542 |
| file     | 500       | get by ref (re-hashed)     | 50 |  0.231 |  4.640 |   0.328 |
| file     | 500       | resolve handle → ref       | 50 |  0.416 |  0.912 |   0.429 |
| file     | 500       | resolve ref → handle       | 50 |  0.199 |  0.754 |   0.228 |
| file     | 500       | source read with query     | 50 |  0.484 |  1.332 |   0.548 |
| file     | 500       | edit (new revision + diff) | 50 |  6.120 | 20.472 |   5.960 |
| postgres | 500       | put (new source)           | 50 |  2.820 |  5.910 |   2.913 |
| postgres | 500       | put (already stored)       | 50 |  1.724 |  2.324 |   1.744 |
| postgres | 500       | get by handle (re-hashed)  | 50 |  1.450 |  6.174 |   1.785 |
| postgres | 500       | get by ref (re-hashed)     | 50 |  0.946 |  4.962 |   1.076 |
| postgres | 500       | resolve handle → ref       | 50 |  1.282 |  8.549 |   1.964 |
| postgres | 500       | resolve ref → handle       | 50 |  0.456 |  2.876 |   0.560 |
| postgres | 500       | source read with query     | 50 |  1.203 |  9.858 |   1.542 |
| postgres | 500       | edit (new revision + diff) | 50 |  4.161 |  7.147 |   4.326 |
RESULT {"bench":"store","revisions":500,"samples":50,"rows":[{"backend":"file","op":"put (new source)","n":50,"p50":6.200357999999824,"p99":13.77477399999998,"mean":6.279217939999994},{"backend":"file","op":"put (already stored)","n":50,"p50":0.7242989999999736,"p99":1.7482689999999366,"mean":0.7741660999999931},{"backend":"file","op":"get by handle (re-hashed)","n":50,"p50":0.5275100000001203,"p99":1.1937589999997726,"mean":0.5423304999999936},{"backend":"file","op":"get by ref (re-hashed)","n":50,"p50":0.231213999999909,"p99":4.639672000000019,"mean":0.3282446000000118},{"backend":"file","op":"resolve handle → ref","n":50,"p50":0.41637100000002647,"p99":0.9117499999999836,"mean":0.4290251800000351},{"backend":"file","op":"resolve ref → handle","n":50,"p50":0.1987619999999879,"p99":0.7540149999999812,"mean":0.22838359999998828},{"backend":"file","op":"source read with query","n":50,"p50":0.48350699999991775,"p99":1.3316570000001775,"mean":0.5478902000000062},{"backend":"file","op":"edit (new revision + diff)","n":50,"p50":6.120107999999846,"p99":20.47186399999987,"mean":5.960216919999966},{"backend":"postgres","op":"put (new source)","n":50,"p50":2.819527999999991,"p99":5.910354999999981,"mean":2.9128963400000067},{"backend":"postgres","op":"put (already stored)","n":50,"p50":1.7243140000000494,"p99":2.32430899999963,"mean":1.7444282400000248},{"backend":"postgres","op":"get by handle (re-hashed)","n":50,"p50":1.4498090000001866,"p99":6.173808999999892,"mean":1.7852715399999943},{"backend":"postgres","op":"get by ref (re-hashed)","n":50,"p50":0.9461939999996503,"p99":4.961695999999847,"mean":1.0764128000000164},{"backend":"postgres","op":"resolve handle → ref","n":50,"p50":1.2815840000002936,"p99":8.54921400000012,"mean":1.964419179999968},{"backend":"postgres","op":"resolve ref → handle","n":50,"p50":0.455855000000156,"p99":2.876144000000295,"mean":0.5596073400000204},{"backend":"postgres","op":"source read with query","n":50,"p50":1.20274500000005,"p99":9.857596999999714,"mean":1.5417257199999768},{"backend":"postgres","op":"edit (new revision + diff)","n":50,"p50":4.161263999999392,"p99":7.147354999999607,"mean":4.3263296799999535}]}
`;

/** `node --import tsx bench/load_patch.ts --seconds 2 --connections 4 --history both --json` */
export const LOAD: string =
  `autocannon 4 connections × 2 s against /v1/files/patch (appends), node v20.20.2
requests 121, 200 121, refused 0, req/s 61, latency p50 58 ms p99 285 ms
lines in file 121; acknowledged but absent or doubled 0; refused but written 0
PASS: every 200 is exactly one line in the file
RESULT {"bench":"load","runtime":"node v20.20.2","connections":4,"seconds":2,"requests":121,"acknowledged":121,"refused":{},"reqPerSec":60.5,"p50Ms":58,"p99Ms":285,"linesInFile":121,"missing":0,"refusedButWritten":0,"historyOffReqPerSec":88.5,"historyRatio":0.6836,"pass":true}
`;

/** `bench/http_bench.ts --requests 80 --concurrency 4 --lines 100 --json` */
export const HTTP: string =
  `POST /v1/format, 100 lines (4484 bytes in, 5144 out), deno, best of 3
                                        app     bare  ratio
sequential req/s (20)                   971     2890   0.34×
concurrent req/s (80, 4 at once)       1551     2770   0.56×
RESULT {"bench":"http","runtime":"deno","lines":100,"bytesIn":4484,"bytesOut":5144,"requests":80,"concurrency":4,"rounds":3,"app":{"sequential":971.4107502044936,"concurrent":1551.0675115512342},"bare":{"sequential":2889.8564449361797,"concurrent":2770.3095810568125}}
`;

/** `bench/mcp_roundtrip.ts 5 --json` */
export const MCP: string =
  `MCP stdio read + one-line edit of a 300-line file, median of 5 rounds
reference server-filesystem: 12.22 ms; hashline fresh session: 21.59 ms (1.77× the reference); after 40 reads of 5,000 lines: 13.73 ms (0.64× fresh)
RESULT {"bench":"mcp","runtime":"deno","lines":300,"rounds":5,"referenceMs":12.22005799999988,"freshMs":21.59357699999987,"loadedMs":13.728918000000249}
`;

/** `bench/cli_startup.ts 3 --json` */
export const CLI: string = `CLI start-up, median of 3 spawns each (interleaved):
  empty Deno script               36.8 ms  1.00× the empty script
  hashline --version             115.6 ms  3.14× the empty script
  hashline read (300 lines)      186.7 ms  5.07× the empty script
  bin/hashline read              190.3 ms  5.17× the empty script
  deno task hashline read        461.2 ms  12.53× the empty script
RESULT {"bench":"cli","runs":3,"cases":[{"id":"empty","name":"empty Deno script","medianMs":36.797953000000234},{"id":"version","name":"hashline --version","medianMs":115.58720900000003},{"id":"read","name":"hashline read (300 lines)","medianMs":186.68352600000003},{"id":"bin","name":"bin/hashline read","medianMs":190.3125},{"id":"task","name":"deno task hashline read","medianMs":461.1709139999998}]}
`;

/** `bench/patch_bench.ts --lines 2000 --rounds 3 --json` */
export const PATCH: string =
  `One replaced line (line 1000) in 2000 lines, 93559 chars; median of 3 rounds × 500 calls.
| call | µs per call | × slice floor |
| --- | ---: | ---: |
| slice floor | 22.9 | 1.00 |
| applyPatch (ops) | 38.5 | 1.68 |
| applyPatch (text form) | 40.2 | 1.76 |
| editContent | 37.3 | 1.63 |
| applyHashlineEdit | 33.1 | 1.45 |
| split + join (whole content) | 240.0 | 10.50 |
RESULT {"bench":"patch","lines":2000,"line":1000,"chars":93559,"rounds":3,"calls":500,"cases":[{"name":"slice floor","usPerCall":22.859372000000118},{"name":"applyPatch (ops)","usPerCall":38.50208800000007},{"name":"applyPatch (text form)","usPerCall":40.150300000000016},{"name":"editContent","usPerCall":37.271639999999934},{"name":"applyHashlineEdit","usPerCall":33.0803820000001},{"name":"split + join (whole content)","usPerCall":239.976044}]}
`;

/** `bench/native/compare.ts --json` where no C compiler is found. */
export const NATIVE_SKIPPED: string =
  `bench:native skipped: no C compiler (\`cc\`) found; the native baseline needs a C compiler and an x86-64 CPU with AVX2.
RESULT {"bench":"native","skipped":"no C compiler (\`cc\`) found"}
`;
