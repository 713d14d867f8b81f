/**
 * A page number as documents print them, as pattern sources: arabic ("12"), chapter-page or appendix style ("2-14",
 * "A-3"), or a roman numeral up to lxxxix (front matter's "iv"). One definition for the page column of a docx's, an
 * HTML export's and a PDF's table of contents and for the page numbers of a PDF's running lines.
 */
export const ROMAN_PAGE = String.raw`(?=[ivxl])l?x{0,3}(?:ix|iv|v?i{0,3})`;

export const PAGE_LABEL = String.raw`(?:(?:[A-Z][-.]?)?\d{1,4}(?:[-.]\d{1,4})?|${ROMAN_PAGE})`;
