import type { Db, MigrationStep } from './step';

/**
 * The seed schema once took colours the renderers could not read (`rgb(300,0,0)`), and every pass
 * of such a card answered 500. A colour the colour rule refuses is removed, so the card shows the
 * default colour in its place; the rest of the design stays.
 *
 * The rule is a copy of lib/colors.ts as it was at this version (#rgb, #rrggbb, or rgb(r, g, b)
 * with whole numbers 0–255, case-insensitive, surrounding spaces ignored), kept here so that a
 * later change of the program's rule never changes what this step drops.
 */
function dropUnreadableColours(db: Db): void {
  const update = db.prepare('UPDATE cards SET design = @design WHERE id = @id');
  for (const card of db.prepare('SELECT id, design FROM cards WHERE design IS NOT NULL').all() as { id: string; design: string }[]) {
    const design = JSON.parse(card.design) as Record<string, unknown>;
    const kept = Object.fromEntries(Object.entries(design).filter(([field, value]) => !field.endsWith('Color') || (typeof value === 'string' && isColour(value))));
    if (Object.keys(kept).length !== Object.keys(design).length) update.run({ id: card.id, design: JSON.stringify(kept) });
  }
}

const RGB_FUNCTION = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function isColour(value: string): boolean {
  const text = value.trim();
  if (HEX.test(text)) return true;
  const fn = RGB_FUNCTION.exec(text);
  return fn !== null && fn.slice(1, 4).every((n) => Number(n) <= 255);
}

export default {
  version: 5,
  name: 'card colours the one colour rule refuses are dropped',
  run: dropUnreadableColours,
} satisfies MigrationStep;
