"""The units of print: millimetres (every length the toolkit measures), points (reportlab's and a
PDF's, 72 to the inch) and inches (the pixels' dots per inch)."""

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH
