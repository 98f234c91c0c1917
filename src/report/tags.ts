// The report's logical structure (a tagged PDF): headings, paragraphs, tables, form fields and pictures in
// reading order for a screen reader, decoration marked as artifacts it skips. pdf-lib has no API for it, so
// this module writes the marked content on the pages and the structure tree in the catalog itself.
import {
  endMarkedContent,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFDocument,
  type PDFObject,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';

/** The structure types the report uses: standard ones, so the tree needs no RoleMap. */
export type Role = 'Document' | 'Sect' | 'H1' | 'H2' | 'H3' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Form' | 'Figure';

export interface ElementOptions {
  /** A picture's words for whoever cannot see it. */
  alt?: string;
  /** Which cells a header cell heads. */
  scope?: 'Column' | 'Row';
  /** Where a picture lies on its page: [x0, y0, x1, y1]. */
  bbox?: [number, number, number, number];
}

/** What an element holds besides other elements: marked content on a page, or a form field's widget. */
type Content = { page: PDFPage; mcid: number } | { page: PDFPage; widget: PDFRef };

export interface StructElement {
  readonly role: Role;
  readonly parent: StructElement | null;
  readonly kids: (StructElement | Content)[];
  readonly options: ElementOptions;
  /** The page of its first content: its /Pg, which content on the same page then need not repeat. */
  page?: PDFPage;
}

const names = {
  artifact: PDFName.of('Artifact'),
  structParent: PDFName.of('StructParent'),
  structParents: PDFName.of('StructParents'),
  tabs: PDFName.of('Tabs'),
};

export class StructureTree {
  readonly document: StructElement = { role: 'Document', parent: null, kids: [], options: {} };
  /** Per page: its key in the parent tree and the element each of its MCIDs belongs to, by MCID. */
  private readonly pages = new Map<PDFPage, { key: number; marked: StructElement[] }>();
  /** Per widget: its key in the parent tree and its Form element. */
  private readonly widgets: { key: number; element: StructElement }[] = [];
  private nextKey = 0;

  constructor(private readonly doc: PDFDocument) {}

  /** A new element, the last child of `parent`. */
  add(role: Role, parent: StructElement, options: ElementOptions = {}): StructElement {
    const element: StructElement = { role, parent, kids: [], options };
    parent.kids.push(element);
    return element;
  }

  /** Opens marked content on `page` that belongs to `element`; end() closes it. */
  begin(page: PDFPage, element: StructElement): void {
    let state = this.pages.get(page);
    if (!state) {
      state = { key: this.nextKey++, marked: [] };
      this.pages.set(page, state);
      page.node.set(names.structParents, PDFNumber.of(state.key));
    }
    const mcid = state.marked.length;
    state.marked.push(element);
    element.kids.push({ page, mcid });
    element.page ??= page;
    // The properties are written as PDF syntax: pdf-lib's operator arguments do not include a dictionary.
    page.pushOperators(
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of(element.role), `<</MCID ${mcid}>>`]),
    );
  }

  /** Opens content no reader reads (a rule, a background, a footer); end() closes it. */
  beginArtifact(page: PDFPage, type?: 'Pagination' | 'Layout'): void {
    page.pushOperators(
      type
        ? PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [names.artifact, `<</Type /${type}>>`])
        : PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [names.artifact]),
    );
  }

  end(page: PDFPage): void {
    page.pushOperators(endMarkedContent());
  }

  /** Makes a widget annotation on `page` the content of `element` (a Form element). */
  annotation(page: PDFPage, element: StructElement, widget: PDFRef): void {
    const key = this.nextKey++;
    this.widgets.push({ key, element });
    this.doc.context.lookup(widget, PDFDict).set(names.structParent, PDFNumber.of(key));
    element.kids.push({ page, widget });
    element.page ??= page;
  }

  /**
   * Writes the tree: the elements, the parent tree, the catalog's StructTreeRoot and MarkInfo, every page's
   * tab order.
   */
  finish(): void {
    const context = this.doc.context;
    const rootRef = context.nextRef();
    const refs = new Map<StructElement, PDFRef>();
    const number = (e: StructElement) => {
      refs.set(e, context.nextRef());
      for (const kid of e.kids) if ('role' in kid) number(kid);
    };
    number(this.document);

    for (const [e, ref] of refs) {
      const kids: PDFObject[] = e.kids.map((kid) => {
        if ('role' in kid) return refs.get(kid)!;
        if ('widget' in kid) return context.obj({ Type: 'OBJR', Obj: kid.widget, Pg: kid.page.ref });
        return kid.page === e.page
          ? PDFNumber.of(kid.mcid)
          : context.obj({ Type: 'MCR', Pg: kid.page.ref, MCID: kid.mcid });
      });
      const dict = context.obj({ Type: 'StructElem', S: e.role, P: e.parent ? refs.get(e.parent)! : rootRef });
      if (e.page) dict.set(PDFName.of('Pg'), e.page.ref);
      if (kids.length > 0) dict.set(PDFName.of('K'), kids.length === 1 ? kids[0]! : context.obj(kids));
      if (e.options.alt !== undefined) dict.set(PDFName.of('Alt'), PDFHexString.fromText(e.options.alt));
      if (e.options.scope) dict.set(PDFName.of('A'), context.obj({ O: 'Table', Scope: e.options.scope }));
      if (e.options.bbox)
        dict.set(PDFName.of('A'), context.obj({ O: 'Layout', Placement: 'Block', BBox: e.options.bbox }));
      context.assign(ref, dict);
    }

    // The parent tree maps a page's key to its elements by MCID, and a widget's key to its Form element.
    const entries: [number, PDFObject][] = [
      ...[...this.pages.values()].map(({ key, marked }): [number, PDFObject] => [
        key,
        context.obj(marked.map((e) => refs.get(e)!)),
      ]),
      ...this.widgets.map(({ key, element }): [number, PDFObject] => [key, refs.get(element)!]),
    ].sort(([a], [b]) => a - b);
    const parentTree = context.register(
      context.obj({ Nums: entries.flatMap(([key, value]) => [PDFNumber.of(key), value]) }),
    );
    context.assign(
      rootRef,
      context.obj({
        Type: 'StructTreeRoot',
        K: refs.get(this.document)!,
        ParentTree: parentTree,
        ParentTreeNextKey: this.nextKey,
      }),
    );
    this.doc.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
    this.doc.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
    // Tab order follows the structure, so a form's fields are visited in reading order.
    for (const page of this.doc.getPages()) page.node.set(names.tabs, PDFName.of('S'));
  }
}
