// Names the PDF specification itself defines (keys and common name values). Searching them for withheld text
// would only find the format's own vocabulary ("page" in /Page, "type" in /Type): they are skipped; any other
// name, such as a resource named after a person, is searched.

const WORDS = `
AA AcroForm ActualText Alt Alternate Annot Annots AP AS Ascent AuthEvent Author AvgWidth
BaseEncoding BaseFont BBox BitsPerComponent BitsPerCoordinate BitsPerFlag BitsPerSample BlackIs1 BlackPoint BM Border BS
C CA ca CapHeight Catalog CharProcs CharSet CIDFontType0 CIDFontType0C CIDFontType2 CIDSet CIDSystemInfo CIDToGIDMap
CMap CMapName Colors ColorSpace Columns Contents Count CreationDate Creator CropBox Cs D DA Decode DecodeParms Descent
DescendantFonts Dest Dests DeviceCMYK DeviceGray DeviceN DeviceRGB Differences DisplayDocTitle Domain DR DW DW2 E
EarlyChange EncodedByteAlign Encoding Encrypt EndOfBlock EndOfLine Extend ExtGState F Ff Fields Filter First FirstChar
Flags FlateDecode Font FontBBox FontDescriptor FontFamily FontFile FontFile2 FontFile3 FontMatrix FontName FontStretch
FontWeight Form FormType Function Functions FunctionType Group H Height ID Identity Identity-H Identity-V Image
ImageMask Indexed Info Intent ItalicAngle JavaScript K Kids Lab Lang Last LastChar Leading Length Length1 Length2 Length3
Limits Link LW Mask Matrix MaxWidth MediaBox Metadata MissingWidth ModDate N Name Names Next NeedAppearances Normal
ObjStm OC OCG OCGs OCProperties OFF ON OpenAction OpenType Order Ordering Outlines OutputIntents P Page PageLabels
PageLayout PageMode Pages PaintType Parent Pattern PatternType Perms Predictor Prev Procset ProcSet Producer Properties
Range Rect Registry Resources Rotate Root Rows S SA Separation Shading ShadingType Size SMask Span StemH StemV
StructParent StructParents StructTreeRoot Subject Subtype Supplement T Text Thumb TilingType Title ToUnicode TR
Trapped TrimBox Tx Type Type0 Type1 Type1C Type3 TrueType U URI URL Version ViewerPreferences W W2 Widget Width Widths
XHeight XObject XRef XYZ Fit FitH FitV FitR FitB FitBH FitBV GoTo Figure Sect Part Art Div P Document StructElem
Courier Courier-Bold Courier-Oblique Courier-BoldOblique Helvetica Helvetica-Bold Helvetica-Oblique Helvetica-BoldOblique
Times-Roman Times-Bold Times-Italic Times-BoldItalic Symbol ZapfDingbats WinAnsiEncoding MacRomanEncoding
StandardEncoding PDFDocEncoding ASCIIHexDecode ASCII85Decode LZWDecode RunLengthDecode CCITTFaxDecode DCTDecode
JPXDecode JBIG2Decode Crypt ICCBased CalRGB CalGray Multiply Screen Overlay Darken Lighten Luminosity Alpha
Transparency GlyphLessFont TextLayer Background Foreground Highlight Underline StrikeOut Square Circle FreeText Popup
`;

export const PDF_VOCABULARY: ReadonlySet<string> = new Set(WORDS.split(/\s+/u).filter(Boolean));

/** Whether a name is the format's own vocabulary, or such a name with a subset tag or a number (F1, TextLayer2). */
export function isVocabulary(name: string): boolean {
  if (PDF_VOCABULARY.has(name)) return true;
  const bare = name.replace(/^[A-Z]{6}\+/u, '').replace(/\d+$/u, '');
  return PDF_VOCABULARY.has(bare) || /^[A-Za-z]{0,3}\d*$/u.test(name);
}
