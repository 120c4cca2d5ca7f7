/** Which bookmarks of a list are selected, and where a Shift-click range starts. */
export interface Selection {
  ids: ReadonlySet<string>;
  anchor: string | null;
}

export const NO_SELECTION: Selection = { ids: new Set(), anchor: null };

/** How a click selects: alone, added or removed (Ctrl or Cmd), or the range from the last click (Shift). */
export type SelectMode = 'only' | 'toggle' | 'range';

export function select(selection: Selection, order: readonly string[], id: string, mode: SelectMode): Selection {
  if (mode === 'only') return { ids: new Set([id]), anchor: id };
  if (mode === 'toggle' || selection.anchor === null) {
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  const from = order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (from === -1 || to === -1) return { ids: new Set([id]), anchor: id };
  const [start, end] = from < to ? [from, to] : [to, from];
  return { ids: new Set([...selection.ids, ...order.slice(start, end + 1)]), anchor: selection.anchor };
}

export const selectAll = (order: readonly string[]): Selection => ({ ids: new Set(order), anchor: order[0] ?? null });

export const modeOf = (event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): SelectMode =>
  event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only';
