/**
 * Realistic small files per language, each with a correct edit and an edit
 * that breaks the syntax (one introduced error).
 */

/** One language's sample. */
export interface Sample {
  /** File name (its extension picks the grammar). */
  path: string;
  /** The file before the edits. */
  text: string;
  /** A correct edit: [old text, new text]. */
  good: [string, string];
  /** An edit that introduces a syntax error: [old text, new text]. */
  bad: [string, string];
}

/** One sample per listed language. */
export const SAMPLES: Sample[] = [
  {
    path: "src/math.ts",
    text: `import { strict as assert } from "node:assert";

export interface Point {
  x: number;
  y: number;
}

export function distance(a: Point, b: Point): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  return Math.sqrt(dx * dx + dy * dy);
}

export class Path<T extends Point> {
  private readonly points: T[] = [];

  add(p: T): this {
    this.points.push(p);
    return this;
  }

  get length(): number {
    let total = 0;
    for (let i = 1; i < this.points.length; i++) {
      total += distance(this.points[i - 1], this.points[i]);
    }
    return total;
  }
}

assert.equal(distance({ x: 0, y: 0 }, { x: 3, y: 4 }), 5);
`,
    good: [
      "    return total;\n",
      "    // Rounded to a thousandth.\n    return Math.round(total * 1000) / 1000;\n",
    ],
    bad: [
      "      total += distance(this.points[i - 1], this.points[i]);\n    }\n",
      "      total += distance(this.points[i - 1], this.points[i]);\n",
    ],
  },
  {
    path: "src/App.tsx",
    text: `import { useState } from "react";

type Props = { title: string; items: string[] };

export function App({ title, items }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <section className="app">
      <h1 onClick={() => setOpen(!open)}>{title}</h1>
      {open && (
        <ul>
          {items.map((item) => <li key={item}>{item}</li>)}
        </ul>
      )}
    </section>
  );
}
`,
    good: [
      "      <h1 onClick={() => setOpen(!open)}>{title}</h1>\n",
      "      <h1 onClick={() => setOpen(!open)}>{title.toUpperCase()}</h1>\n      <p>{items.length} items</p>\n",
    ],
    bad: ["        </ul>\n", "        </ul\n"],
  },
  {
    path: "lib/queue.js",
    text: `"use strict";

class Queue {
  #items = [];

  push(item) {
    this.#items.push(item);
    return this;
  }

  shift() {
    return this.#items.shift();
  }

  get size() {
    return this.#items.length;
  }
}

module.exports = { Queue };
`,
    good: [
      "  get size() {\n",
      "  clear() {\n    this.#items = [];\n  }\n\n  get size() {\n",
    ],
    bad: [
      "    return this.#items.shift();\n",
      "    return this.#items.shift(;\n",
    ],
  },
  {
    path: "config/settings.json",
    text: `{
  "name": "demo",
  "version": "1.2.3",
  "features": ["a", "b"],
  "limits": { "rps": 100, "burst": 20 }
}
`,
    good: [
      '  "version": "1.2.3",\n',
      '  "version": "1.2.4",\n  "private": true,\n',
    ],
    bad: ['  "features": ["a", "b"],\n', '  "features": ["a", "b"]\n'],
  },
  {
    path: "tools/report.py",
    text: `from dataclasses import dataclass


@dataclass
class Row:
    name: str
    total: int


def summarize(rows: list[Row]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        out[row.name] = out.get(row.name, 0) + row.total
    return out


if __name__ == "__main__":
    print(summarize([Row("a", 1), Row("a", 2)]))
`,
    good: [
      "    return out\n",
      "    # Largest first.\n    return dict(sorted(out.items(), key=lambda kv: -kv[1]))\n",
    ],
    bad: ["    for row in rows:\n", "    for row in rows\n"],
  },
  {
    path: "cmd/server/main.go",
    text: `package main

import (
	"fmt"
	"net/http"
)

func handler(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	fmt.Fprintf(w, "hello %s", r.URL.Path)
}

func main() {
	http.HandleFunc("/", handler)
	_ = http.ListenAndServe(":8080", nil)
}
`,
    good: [
      '\tfmt.Fprintf(w, "hello %s", r.URL.Path)\n',
      '\tname := r.URL.Path[1:]\n\tfmt.Fprintf(w, "hello %s", name)\n',
    ],
    bad: ["\t\treturn\n\t}\n", "\t\treturn\n"],
  },
  {
    path: "src/lib.rs",
    text: `use std::collections::HashMap;

pub struct Counter {
    counts: HashMap<String, usize>,
}

impl Counter {
    pub fn new() -> Self {
        Self { counts: HashMap::new() }
    }

    pub fn add(&mut self, word: &str) {
        *self.counts.entry(word.to_string()).or_insert(0) += 1;
    }
}
`,
    good: [
      "    pub fn add(&mut self, word: &str) {\n",
      "    pub fn get(&self, word: &str) -> usize {\n        self.counts.get(word).copied().unwrap_or(0)\n    }\n\n    pub fn add(&mut self, word: &str) {\n",
    ],
    bad: [
      "        Self { counts: HashMap::new() }\n",
      "        Self { counts: HashMap::new( }\n",
    ],
  },
  {
    path: "web/site.css",
    text: `:root {
  --accent: #0a7;
}

body {
  margin: 0;
  font: 16px/1.5 system-ui, sans-serif;
}

.card > h2 {
  color: var(--accent);
}
`,
    good: ["  margin: 0;\n", "  margin: 0;\n  padding: 1rem;\n"],
    bad: ["  color: var(--accent);\n}\n", "  color: var(--accent);\n"],
  },
  {
    path: "web/index.html",
    text: `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Demo</title>
  </head>
  <body>
    <main id="app">
      <p class="lead">Hello</p>
    </main>
  </body>
</html>
`,
    good: [
      '      <p class="lead">Hello</p>\n',
      '      <p class="lead">Hello</p>\n      <a href="/docs">Docs</a>\n',
    ],
    bad: [
      '      <p class="lead">Hello</p>\n',
      '      <p class="lead>Hello</p>\n',
    ],
  },
  {
    path: ".github/ci.yaml",
    text: `name: ci
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm test
`,
    good: [
      "      - run: npm test\n",
      "      - run: npm ci\n      - run: npm test\n",
    ],
    bad: ["    branches: [main]\n", "    branches: [main\n"],
  },
  {
    path: "Cargo.toml",
    text: `[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }
`,
    good: ['edition = "2021"\n', 'edition = "2021"\nlicense = "MIT"\n'],
    bad: ["[dependencies]\n", "[dependencies\n"],
  },
  {
    path: "scripts/deploy.sh",
    text: `#!/usr/bin/env bash
set -euo pipefail

target="\${1:-staging}"
if [ "$target" = "production" ]; then
  echo "deploying to production"
else
  echo "deploying to $target"
fi

for f in dist/*.js; do
  gzip -k "$f"
done
`,
    good: [
      '  echo "deploying to $target"\n',
      '  echo "deploying to $target"\n  export DRY_RUN=1\n',
    ],
    bad: ["done\n", ""],
  },
];

/** Applies an [old, new] edit to a text (the old text must occur once). */
export function applyEdit(text: string, [from, to]: [string, string]): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`edit anchor not unique: ${JSON.stringify(from)}`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}
