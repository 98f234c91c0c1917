"""Fills the blank official URLA with pypdf, as Python-based lenders' systems do, into the two copies the
tests read (test/support/urla-official.ts says what each must give):

  urla_1003_pypdf_filled.pdf     values in the AcroForm fields, appearance streams made by pypdf
  urla_1003_pypdf_flattened.pdf  values drawn into the pages and the fields removed (pypdf's flatten);
                                 Section 1b is marked "Does not apply" yet filled, its total not its sum

Run from this folder with pypdf 5 or later: python3 fill-with-pypdf.py
"""

from pypdf import PdfReader, PdfWriter

FILLED = {
    "_1a_Name": "Priya N Raman",
    "_1a_Address_St": "5120 Cedar Hollow Dr",
    "_1a_Address_City": "Raleigh",
    "_1a_Address_State": "NC",
    "_1a_Address_Zip": "27606",
    "_1b_Employer": "Triangle Biologics Inc",
    "_1b_Position": "Lab Director",
    "_1b_Employment_Start_Month": "04",
    "_1b_Employment_Start_Day": "12",
    "_1b_Employment_Start_Year": "2017",
    "_1b_Base": "8,750.00",
    "_1b_Bonus": "600.00",
    "_1b_IncomeTotal": "9,350.00",
    "_1c_Employer": "Wake Tech Community College",
    "_1c_Position": "Adjunct Instructor",
    "_1c_Base": "1,150.00",
    "_1c_IncomeTotal": "1,150.00",
    "_1d_Does_Not_Apply": "/Yes",
}

CONTRADICTORY = {
    "_1a_Name": "Tomas R Lindqvist",
    "_1a_Address_St": "88 Quarry Road",
    "_1a_Address_City": "Barre",
    "_1a_Address_State": "VT",
    "_1a_Address_Zip": "05641",
    "_1b_Does_Not_Apply1": "/Yes",
    "_1b_Employer": "Granite State Freight LLC",
    "_1b_Base": "4,200.00",
    "_1b_IncomeTotal": "4,700.00",
    "_1c_Employer": "Green Mountain Rentals",
    "_1c_Base": "1,300.00",
    "_1c_IncomeTotal": "1,300.00",
}


def fill(values, out, flatten):
    writer = PdfWriter(clone_from=PdfReader("urla_1003_blank.pdf"))
    # The XFA copy of the form would otherwise be what XFA-aware viewers show.
    if "/XFA" in writer._root_object["/AcroForm"]:
        del writer._root_object["/AcroForm"]["/XFA"]
    left = dict(values)
    # Page by page, each with the fields its widgets are (the widgets name them "_1b_Base[0]").
    for page in writer.pages:
        names = {str(a.get_object().get("/T")) for a in page.get("/Annots", [])}
        here = {f"{k}[0]": v for k, v in values.items() if f"{k}[0]" in names}
        for k in here:
            left.pop(k.removesuffix("[0]"), None)
        if here:
            writer.update_page_form_field_values(page, here, auto_regenerate=False, flatten=flatten)
    assert not left, f"no such fields: {sorted(left)}"
    if flatten:
        writer.remove_annotations("/Widget")
        del writer._root_object["/AcroForm"]
    writer.compress_identical_objects()
    with open(out, "wb") as f:
        writer.write(f)


fill(FILLED, "urla_1003_pypdf_filled.pdf", flatten=False)
fill(CONTRADICTORY, "urla_1003_pypdf_flattened.pdf", flatten=True)
