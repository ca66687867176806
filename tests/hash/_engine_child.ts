/** Child process: prints which engine hashLines uses and what it gives. */
import { hashEngine, hashLines } from "../../src/hash/mod.ts";

const folds = hashLines(new TextEncoder().encode("x\ny\n"));
console.log(JSON.stringify({ engine: hashEngine(), folds: [...folds] }));
