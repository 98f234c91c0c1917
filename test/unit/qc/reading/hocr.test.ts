// Native tesseract's hOCR, as tesseract 5.3 writes it with hocr_char_boxes=1, read into lines of words.
import test from 'ava';
import { parseHocr } from '../../../../src/qc/reading/hocr.js';

const page =
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head>
  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
 </head>
 <body>
  <div class='ocr_page' id='page_1' title='image "stdin"; bbox 0 0 1700 2200; ppageno 0; scan_res 300 300'>
   <div class='ocr_carea' id='block_1_1' title="bbox 71 136 613 944">
    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 71 136 613 944">
     <span class='ocr_line' id='line_1_1' title="bbox 71 136 420 170; baseline 0.002 -5; x_size 34; ` +
  `x_descenders 7; x_ascenders 8">
      <span class='ocrx_word' id='word_1_1' title='bbox 71 136 225 165; x_wconf 96'>
       <span class='ocrx_cinfo' title='x_bboxes 71 136 90 165; x_conf 99.5'>L</span>
       <span class='ocrx_cinfo' title='x_bboxes 91 136 110 165; x_conf 99.1'>O</span>
       <span class='ocrx_cinfo' title='x_bboxes 111 136 130 165; x_conf 98.7'>A</span>
       <span class='ocrx_cinfo' title='x_bboxes 131 136 150 165; x_conf 99.0'>N</span>
      </span>
      <span class='ocrx_word' id='word_1_2' title='bbox 240 137 420 170; x_wconf 88'>
       <span class='ocrx_cinfo' title='x_bboxes 240 137 260 170; x_conf 90'>&amp;</span>
       <span class='ocrx_cinfo' title='x_bboxes 261 137 280 170; x_conf 90'>&lt;</span>
       <span class='ocrx_cinfo' title='x_bboxes 281 137 300 170; x_conf 90'>&#39;</span>
       <span class='ocrx_cinfo' title='x_bboxes 301 137 320 170; x_conf 90'>ñ</span>
      </span>
     </span>
     <span class='ocr_header' id='line_1_2' title="bbox 77 858 613 944; baseline -0.01 -2; x_size ` +
  `97.4; x_descenders 12.4; x_ascenders 24">
      <span class='ocrx_word' id='word_1_3' title='bbox 77 858 613 944; x_wconf 71'>Disclosure</span>
      <span class='ocrx_word' id='word_1_4' title='bbox 620 858 630 944; x_wconf 10'> </span>
     </span>
     <span class='ocr_line' id='line_1_3' title="bbox 77 950 613 990; baseline 0 0; x_size 30">
      <span class='ocrx_word' id='word_1_5' title='bbox 77 950 90 990; x_wconf 20'>  </span>
     </span>
    </p>
   </div>
  </div>
 </body>
</html>
`;

test('lines, words, boxes, baselines, row heights and confidences are read; character boxes make the words', (t) => {
  const lines = parseHocr(page);
  t.is(lines.length, 2, 'a line of blank words is no line');
  const [first, second] = lines as [(typeof lines)[0], (typeof lines)[0]];
  t.deepEqual(first.bbox, { x0: 71, y0: 136, x1: 420, y1: 170 });
  t.deepEqual(first.baseline, { slope: 0.002, offset: -5 });
  t.is(first.rowHeight, 34);
  t.deepEqual(
    first.words.map((w) => [w.text, w.confidence]),
    [
      ['LOAN', 96],
      ["&<'ñ", 88],
    ],
  );
  t.deepEqual(first.words[0]!.bbox, { x0: 71, y0: 136, x1: 225, y1: 165 });
  t.deepEqual(
    first.words[0]!.symbols?.map((s) => s.text),
    ['L', 'O', 'A', 'N'],
  );
  t.deepEqual(first.words[0]!.symbols?.[1]?.bbox, { x0: 91, y0: 136, x1: 110, y1: 165 });
  // A heading is a line too; a word that is only a space is dropped.
  t.deepEqual(
    second.words.map((w) => w.text),
    ['Disclosure'],
  );
  t.is(second.words[0]!.symbols, undefined, 'no character boxes: the word has none');
  t.deepEqual(second.baseline, { slope: -0.01, offset: -2 });
  t.is(second.rowHeight, 97.4);
});

test('a page with no words, or output that is not hOCR, gives no lines', (t) => {
  t.deepEqual(parseHocr(page.replace(/<div class='ocr_carea'[\s\S]*<\/div>\n {2}<\/div>/, '</div>')), []);
  t.deepEqual(parseHocr(''), []);
  t.deepEqual(parseHocr('Estimating resolution as 291\n<span class="ocrx_word">no line</span>'), []);
});

test('a truncated page keeps the words read before the cut', (t) => {
  const cut = page.slice(0, page.indexOf("<span class='ocr_header'"));
  const lines = parseHocr(cut);
  t.deepEqual(
    lines.map((l) => l.words.map((w) => w.text)),
    [['LOAN', "&<'ñ"]],
  );
});
