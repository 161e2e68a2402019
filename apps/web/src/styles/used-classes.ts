/**
 * The Bootstrap class names the web app's sources can put on an element, for
 * bootstrap-classes.test.ts: a class bootstrap.scss leaves out is a broken screen. Own code, not
 * PurgeCSS (not a dependency): the login CSS target (docs/performance.md, login CSS) needs only
 * this check, not a CSS rewriter.
 */

/**
 * Prefixes that react-bootstrap props (variant, bg, text, size) and the app's templates put
 * before a string that is not a class itself ('outline-secondary' → btn-outline-secondary).
 */
export const VARIANT_PREFIXES = ['btn-', 'bg-', 'text-', 'border-', 'alert-', 'btn-close-'];

/**
 * Classes react-bootstrap adds itself for the components and props the app uses (Accordion, Alert
 * dismissible, Badge pill, Card, Dropdown align="end", Form, Form.Check, Image fluid, InputGroup,
 * ListGroup, Modal size/centered/scrollable/static, ProgressBar striped/animated, Spinner,
 * Tabs, Table striped/hover/size/responsive, Toast, ToastContainer top-end, CloseButton white).
 */
export const REACT_BOOTSTRAP_CLASSES = [
  'accordion accordion-item accordion-header accordion-button accordion-collapse accordion-body',
  'collapse collapsing collapsed show fade active disabled',
  'alert alert-dismissible alert-heading alert-link badge rounded-pill btn btn-close btn-close-white',
  'card card-body card-header card-title card-subtitle card-text card-footer row col',
  'dropdown dropdown-toggle dropdown-menu dropdown-menu-end dropdown-item dropdown-divider',
  'dropdown-header form-label form-control form-select form-check form-check-input',
  'form-check-label form-text text-muted invalid-feedback is-invalid col-form-label img-fluid',
  'input-group input-group-text has-validation list-group list-group-item list-group-item-action',
  'modal modal-backdrop modal-dialog modal-content modal-header modal-title modal-body',
  'modal-footer modal-sm modal-lg modal-dialog-centered modal-dialog-scrollable modal-static',
  'progress progress-bar progress-bar-striped progress-bar-animated visually-hidden',
  'spinner-border spinner-border-sm nav nav-tabs nav-item nav-link tab-content tab-pane',
  'table table-striped table-hover table-sm table-responsive',
  'toast toast-header toast-body toast-container top-0 end-0 position-absolute',
]
  .join(' ')
  .split(' ');

/** Every class selector in a style sheet (`.d-md-none`, not the escaped `\:` ones). */
export function cssClasses(css: string): Set<string> {
  const body = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/url\([^)]*\)/g, '');
  return new Set([...body.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!));
}

/** The whitespace-separated words of every string and template literal in a source file. */
function literalWords(source: string): { words: string[]; dynamicPrefixes: string[] } {
  const words: string[] = [];
  const dynamicPrefixes: string[] = [];
  for (const m of source.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g))
    words.push(...(m[1] ?? m[2]!).split(/\s+/));
  for (const m of source.matchAll(/`([^`]*)`/g)) {
    const parts = m[1]!.split(/\$\{[^}]*\}/);
    parts.forEach((part, i) => {
      const partWords = part.split(/\s+/);
      words.push(...partWords);
      const last = partWords[partWords.length - 1]!;
      if (i < parts.length - 1 && last.endsWith('-')) dynamicPrefixes.push(last);
    });
  }
  return { words: words.filter(Boolean), dynamicPrefixes };
}

/** `<Col md={6}>` → col-md-6, `<Col lg>` → col-lg, `<Col xs="auto">` → col-auto, `<Row md={2}>` → row-cols-md-2. */
function gridPropClasses(source: string): string[] {
  const out: string[] = [];
  for (const tag of source.matchAll(/<(Col|Row)\b((?:[^>]|=>)*)>/g)) {
    const base = tag[1] === 'Col' ? 'col' : 'row-cols';
    for (const prop of tag[2]!.matchAll(
      /\b(xs|sm|md|lg|xl|xxl)\b(?:=(?:\{(\d+)\}|"(\w+)"|\{'(\w+)'\}))?/g,
    )) {
      const infix = prop[1] === 'xs' ? '' : `-${prop[1]}`;
      const value = prop[2] ?? prop[3] ?? prop[4];
      out.push(value ? `${base}${infix}-${value}` : `${base}${infix}`);
    }
  }
  return out;
}

export interface UsedClasses {
  /** Bootstrap classes the sources can use, each with a file that uses it. */
  used: Map<string, string>;
  /** `prefix-${…}` templates whose prefix begins Bootstrap classes but is not a known variant prefix. */
  unknownDynamic: string[];
}

/** The Bootstrap classes (members of `bootstrapClasses`) that the given sources can use. */
export function usedBootstrapClasses(
  sources: Record<string, string>,
  bootstrapClasses: Set<string>,
): UsedClasses {
  const used = new Map<string, string>();
  const unknownDynamic: string[] = [];
  const add = (cls: string, file: string) => {
    if (bootstrapClasses.has(cls) && !used.has(cls)) used.set(cls, file);
  };
  for (const [file, source] of Object.entries(sources)) {
    const { words, dynamicPrefixes } = literalWords(source);
    for (const word of words) {
      if (bootstrapClasses.has(word)) add(word, file);
      else for (const prefix of VARIANT_PREFIXES) add(prefix + word, file);
    }
    for (const cls of gridPropClasses(source)) add(cls, file);
    for (const prefix of dynamicPrefixes) {
      const known = VARIANT_PREFIXES.some((p) => prefix.endsWith(p));
      const bootstrapLike = [...bootstrapClasses].some((c) => c.startsWith(prefix));
      if (!known && bootstrapLike) unknownDynamic.push(`${file}: ${prefix}\${…}`);
    }
  }
  for (const cls of REACT_BOOTSTRAP_CLASSES) add(cls, 'react-bootstrap');
  return { used, unknownDynamic };
}
