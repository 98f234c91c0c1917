import test from 'ava';
import type { OcrBitmap } from '../../../../src/qc/reading/images.js';
import {
  lieOf,
  readsUpright,
  readUpright,
  turnsOfOsd,
  turnsToTry,
  uprightBitmap,
  type OrientedWord,
  type QuarterTurns,
} from '../../../../src/qc/reading/orientation.js';

const word = (level: boolean, confidence: number): OrientedWord => ({
  text: 'word',
  bbox: level ? { x0: 0, y0: 0, x1: 40, y1: 10 } : { x0: 0, y0: 0, x1: 10, y1: 40 },
  confidence,
});
const words = (n: number, level: boolean, confidence: number) =>
  Array.from({ length: n }, () => word(level, confidence));

test('tesseract’s orientation report gives the quarter turns clockwise that make the page upright', (t) => {
  const report = (rotate: number, confidence: number) =>
    `Page number: 0\nOrientation in degrees: ${(360 - rotate) % 360}\nRotate: ${rotate}\n` +
    `Orientation confidence: ${confidence}\nScript: Latin\nScript confidence: 3.1\n`;
  t.is(turnsOfOsd(report(0, 15.85)), 0);
  t.is(turnsOfOsd(report(90, 15.13)), 1);
  t.is(turnsOfOsd(report(180, 9.08)), 2);
  t.is(turnsOfOsd(report(270, 7.16)), 3);
  t.is(turnsOfOsd(report(90, 0.8)), undefined, 'a guess is not believed');
  t.is(turnsOfOsd('Too few characters. Skipping this page'), undefined);
});

test('a first reading of level words read with confidence is of an upright page', (t) => {
  t.true(readsUpright(lieOf(words(40, true, 91))));
  t.false(readsUpright(lieOf(words(40, true, 35))), 'upside down: level, but noise');
  t.false(readsUpright(lieOf(words(40, false, 94))), 'sideways: confident, but its words run down the page');
  t.false(readsUpright(lieOf(words(3, true, 95))), 'too few words to say');
  // Short words (a check box, "of") do not show which way a line runs.
  t.is(lieOf([...words(10, true, 90), { text: 'of', bbox: { x0: 0, y0: 0, x1: 5, y1: 30 } }]).level, 1);
});

test(
  'the turns tried follow what the first reading says: vertical words a ' +
    'quarter turn, others any, upside down first; few words none',
  (t) => {
    t.deepEqual(turnsToTry(lieOf(words(40, false, 90))), [1, 3]);
    t.deepEqual(turnsToTry(lieOf(words(40, true, 35))), [2, 1, 3]);
    t.deepEqual(turnsToTry(lieOf([...words(20, true, 50), ...words(20, false, 50)])), [2, 1, 3]);
    t.deepEqual(turnsToTry(lieOf(words(2, false, 50))), [], 'a nearly blank page has no lie to find');
  },
);

/** A 3×2 bitmap with every pixel different, to follow where each goes. */
const bitmap: OcrBitmap = { grey: Uint8Array.from([1, 2, 3, 4, 5, 6]), width: 3, height: 2 };

test('a bitmap is turned clockwise by quarter turns, exactly', async (t) => {
  // 1 2 3        4 1
  // 4 5 6   →    5 2
  //              6 3
  const quarter = await uprightBitmap(bitmap, 1);
  t.deepEqual([quarter.width, quarter.height, [...quarter.grey]], [2, 3, [4, 1, 5, 2, 6, 3]]);
  const half = await uprightBitmap(bitmap, 2);
  t.deepEqual([half.width, half.height, [...half.grey]], [3, 2, [6, 5, 4, 3, 2, 1]]);
  const three = await uprightBitmap(bitmap, 3);
  t.deepEqual([three.width, three.height, [...three.grey]], [2, 3, [3, 6, 2, 5, 1, 4]]);
  t.is(await uprightBitmap(bitmap, 0), bitmap);
});

/**
 * A page lying `lies` quarter turns clockwise from upright, as a reader of it sees it: level, confident words
 * only once turned upright; vertical ones a quarter turn off; level noise upside down.
 */
function pageLying(lies: QuarterTurns) {
  const reads: number[] = [];
  const read = async (b: OcrBitmap) => {
    // The test's bitmaps carry the turns applied so far in their first pixel.
    const applied = b.grey[0]! as QuarterTurns;
    reads.push(applied);
    const off = (lies + applied) % 4;
    return off === 0 ? words(40, true, 90) : off === 2 ? words(40, true, 35) : words(40, false, 80);
  };
  const page = { grey: Uint8Array.from([0]), width: 1, height: 1 };
  return { page, read, reads };
}
// Turning a 1×1 bitmap leaves it as it is: here a turn is recorded in its pixel instead.
const turnedBy = (b: OcrBitmap, turns: QuarterTurns): OcrBitmap => ({ ...b, grey: Uint8Array.from([turns]) });

async function upright(lies: QuarterTurns, detect?: (b: OcrBitmap) => Promise<QuarterTurns | undefined>) {
  const { page, read, reads } = pageLying(lies);
  const result = await readUpright(page, read, (r) => r, detect, turnedBy);
  return { turns: result.turns, reads };
}

test('an upright page is read once; a turned one is read again turned as detection says', async (t) => {
  const detect = (lies: QuarterTurns) => async () => ((4 - lies) % 4) as QuarterTurns;
  t.deepEqual(await upright(0, detect(0)), { turns: 0, reads: [0] });
  t.deepEqual(await upright(1, detect(1)), { turns: 3, reads: [0, 3] });
  t.deepEqual(await upright(2, detect(2)), { turns: 2, reads: [0, 2] });
  t.deepEqual(await upright(3, detect(3)), { turns: 1, reads: [0, 1] });
});

test(
  'without detection, or where it is unsure, the turns the first ' + 'reading leaves are tried and the best kept',
  async (t) => {
    t.deepEqual(await upright(2), { turns: 2, reads: [0, 2] });
    t.deepEqual(await upright(1), { turns: 3, reads: [0, 1, 3] });
    // Found upright at the first turn tried: the other is not read.
    t.deepEqual(await upright(3, async () => undefined), { turns: 1, reads: [0, 1] });
  },
);

test('detection that says upright is believed; a turn it gives that reads no better is not taken', async (t) => {
  // A poor scan lying upright: detection says so, and it is read as it lies, once.
  t.deepEqual(await upright(2, async () => 0), { turns: 0, reads: [0] });
  // Detection wrong by a half turn (a sideways page turned the wrong way): the turns left are tried after it.
  t.deepEqual(await upright(3, async () => 3), { turns: 1, reads: [0, 3, 1] });
  // Detection wrong: the page it turns reads worse, so the first reading stands.
  const { page, read } = pageLying(0);
  const poor = async (b: OcrBitmap) => (await read(b)).map((w) => ({ ...w, confidence: 50 }));
  t.is(
    (
      await readUpright(
        page,
        poor,
        (r) => r,
        async () => 2,
        turnedBy,
      )
    ).turns,
    0,
  );
});
