/**
 * The repository explains itself: a comment or a document may point into `docs/`, never to a
 * document a clone does not have (the product's specification and design notes kept elsewhere,
 * an issue tracker's numbers). `findReferenceProblems` reads one file's text and lists what a
 * reader with only the clone could not follow; doc-references.test.ts runs it on every tracked
 * text file and on its own fixtures.
 */

/** What a check needs to know of `docs/`: each file by name, with its headings' anchors. */
export type DocsIndex = ReadonlyMap<string, { anchors: ReadonlySet<string>; titles: string[] }>;

export interface ReferenceProblem {
  line: number;
  text: string;
  reason: string;
}

/** Citations of documents that live outside the repository, or of an issue tracker. */
const OUTSIDE: [RegExp, string][] = [
  [/\.\.\/shared\b/, 'points outside the repository (../shared)'],
  [/\bshared\/(spec|product|engineering)\b/, 'points to a document outside the repository'],
  [
    /\b(decisions|reliability|product-spec)\.md\b/,
    'cites a document that is not in the repository',
  ],
  [/\bissues? #?\d+/i, 'cites an issue number: state the reason in place'],
  [/\bspec(ification)? (section )?§?\d+(\.\d+)?/i, 'cites a specification section'],
  [/\bspec(ification)? section\b/i, 'cites a specification section'],
  [/\(spec\)/i, 'cites the specification'],
  [/\bdevelopers['’]? guide\b/i, "cites a developers' guide that is not in the repository"],
];

/** `performance.md` or `architecture.md` not written as a path into docs/. */
const BARE_DOC = /(?<![\w/.-])(performance|architecture)\.md\b/g;
/** A path into docs/, with an optional anchor. */
const DOCS_PATH = /\bdocs\/([\w.-]+\.md)(#[\w-]+)?/g;
/** A relative markdown link target inside a file of docs/: `](name.md#anchor)`. */
const RELATIVE_LINK = /\]\(([\w.-]+\.md)(#[\w-]+)?\)/g;
/**
 * "docs/performance.md, <target>" and "docs/product.md, <topic>": the words after the comma
 * must begin with one of that file's headings, so a renamed heading cannot leave comments behind.
 */
const NAMED_SECTION = /\bdocs\/(performance|product)\.md, ([A-Za-z][^)\n]*)/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The headings of a markdown file: their titles and anchors. */
export function headingsOf(markdown: string): { anchors: Set<string>; titles: string[] } {
  const titles = [...markdown.matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((m) => m[1] ?? '');
  return { anchors: new Set(titles.map(anchorOf)), titles };
}

function checkDocsTarget(docs: DocsIndex, name: string, anchor: string | undefined): string | null {
  const doc = docs.get(name);
  if (!doc) return `docs/${name} does not exist`;
  if (anchor && !doc.anchors.has(anchor.slice(1))) return `docs/${name} has no heading ${anchor}`;
  return null;
}

/**
 * The problems of one file. `file` is its path from the repository's root; files under docs/
 * may link to their neighbours by a relative name.
 */
export function findReferenceProblems(
  file: string,
  text: string,
  docs: DocsIndex,
): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const inDocs = file.startsWith('docs/') && file.endsWith('.md');
  text.split('\n').forEach((content, index) => {
    const add = (reason: string) => problems.push({ line: index + 1, text: content, reason });
    for (const [pattern, reason] of OUTSIDE) if (pattern.test(content)) add(reason);
    for (const m of content.matchAll(DOCS_PATH)) {
      const problem = checkDocsTarget(docs, m[1] ?? '', m[2]);
      if (problem) add(problem);
    }
    for (const m of content.matchAll(NAMED_SECTION)) {
      const titles = (docs.get(`${m[1]}.md`)?.titles ?? []).map((t) => t.toLowerCase());
      const after = (m[2] ?? '').toLowerCase().trimEnd();
      // A name cut by the end of a comment line is checked as far as it goes.
      const cut = (m.index ?? 0) + m[0].trimEnd().length === content.trimEnd().length;
      const named = (title: string) => after.startsWith(title) || (cut && title.startsWith(after));
      if (!titles.some(named)) {
        add(`docs/${m[1]}.md has no section that "${m[2]}" names`);
      }
    }
    const linked = new Set<number>();
    if (inDocs) {
      for (const m of content.matchAll(RELATIVE_LINK)) {
        linked.add((m.index ?? 0) + 2);
        const problem = checkDocsTarget(docs, m[1] ?? '', m[2]);
        if (problem) add(problem);
      }
    }
    for (const m of content.matchAll(BARE_DOC)) {
      if (!linked.has(m.index ?? -1)) add(`${m[0]} outside docs/: write docs/${m[0]}`);
    }
  });
  return problems;
}
