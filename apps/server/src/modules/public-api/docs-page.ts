/**
 * The API reference at /api/docs (docs/api.md, The OpenAPI document): HTML rendered on the
 * server from the OpenAPI document itself, so it needs no script at all and meets the strictest
 * Content-Security-Policy; its stylesheet is a file of the same origin (DOCS_CSS).
 */

/** The parts of an OpenAPI 3.1 document the page reads. */
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >;
}
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation> | undefined>;
  components?: { schemas?: Record<string, unknown> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline code spans, as the document's descriptions write them: `like this`. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);

const anchor = (name: string) => `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A schema as JSON, its `$ref`s linked to the components below. */
function schemaBlock(schema: unknown): string {
  const json = escapeHtml(JSON.stringify(schema, null, 2));
  const linked = json.replace(
    /(&#34;\$ref&#34;: &#34;)#\/components\/schemas\/([^&]+)(&#34;)/g,
    (_, open: string, name: string, close: string) =>
      `${open}<a href="#${anchor(name)}">#/components/schemas/${name}</a>${close}`,
  );
  return `<pre>${linked}</pre>`;
}

function operationHtml(method: string, path: string, op: Operation): string {
  const parts = [
    `<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
  ];
  if (op.summary) parts.push(`<p class="summary">${prose(op.summary)}</p>`);
  if (op.description) parts.push(`<p>${prose(op.description)}</p>`);
  if (op.parameters?.length) {
    const items = op.parameters
      .map(
        (p) =>
          `<li><code>${escapeHtml(p.name)}</code> <span class="where">in ${escapeHtml(p.in)}, ` +
          `${p.required ? 'required' : 'optional'}</span>${schemaBlock(p.schema ?? {})}</li>`,
      )
      .join('');
    parts.push(`<h4>Parameters</h4><ul class="params">${items}</ul>`);
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    parts.push(
      `<h4>Request body <code>${escapeHtml(type)}</code></h4>${schemaBlock(media.schema)}`,
    );
  }
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    const media = Object.values(res.content ?? {})[0];
    parts.push(
      `<h4>Response ${escapeHtml(status)}${res.description ? ` — ${prose(res.description)}` : ''}</h4>` +
        (media ? schemaBlock(media.schema) : ''),
    );
  }
  return `<section class="operation">${parts.join('\n')}</section>`;
}

/** The whole page, one section per tag, then the shared schemas. */
export function renderDocsPage(doc: OpenApiDocument, cssHref: string, jsonHref: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
    }
  }
  const nav = [...byTag.keys()]
    .map((tag) => `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a></li>`)
    .join('');
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<h2 id="tag-${anchor(tag)}">${escapeHtml(tag)}</h2>${ops.join('\n')}`)
    .join('\n');
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, s]) =>
        `<h3 id="${anchor(name)}"><code>${escapeHtml(name)}</code></h3>${schemaBlock(s)}`,
    )
    .join('\n');
  const title = `${doc.info.title} v${doc.info.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} reference</title>
<link rel="stylesheet" href="${escapeHtml(cssHref)}">
</head>
<body>
<header><h1>${escapeHtml(title)}</h1>
<p>${prose(doc.info.description ?? '')}</p>
<p>The machine-readable document: <a href="${escapeHtml(jsonHref)}">${escapeHtml(jsonHref)}</a> (OpenAPI 3.1).</p>
<nav aria-label="Sections"><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
</header>
<main>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}
</main>
</body>
</html>
`;
}

export const DOCS_CSS = `
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem;
  color: #1d2125; line-height: 1.5; }
a { color: #0a58ca; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.875rem; }
pre { background: #f3f4f6; padding: 0.75rem; overflow-x: auto; border-radius: 0.25rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
.operation { border-top: 1px solid #dee2e6; padding: 0.5rem 0 1rem; }
.operation h3 { overflow-wrap: anywhere; }
.summary { font-weight: 600; }
.method { display: inline-block; min-width: 4.5rem; padding: 0.1rem 0.4rem; border-radius: 0.25rem;
  color: #fff; text-align: center; font-size: 0.875rem; }
.method-get { background: #0b5ed7; }
.method-post { background: #146c43; }
.method-delete { background: #b02a37; }
.method-put, .method-patch { background: #664d03; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.params { list-style: none; padding: 0; }
.params li { margin-bottom: 0.5rem; }
.where { color: #495057; font-size: 0.875rem; }
.params pre { margin: 0.25rem 0 0; }
`;
