"""Copy the federation flags the live page shows from the flag-icons npm package (MIT).

    npm pack flag-icons && tar xzf flag-icons-*.tgz      # gives ./package
    python tools/make_flags.py package                   # writes host/flagfall/broadcast/static/flags/

Players' federations come as FIDE (and FMJD) three-letter codes (WhiteFed, the TRF's
federation column); flag-icons names its files by ISO 3166 codes. This maps one to the
other and ships every federation's flag as FED.svg, made compact: comments, metadata and
layout whitespace dropped, coordinates rounded to a tenth of a unit of the 640x480 view
(far below a pixel of a flag drawn 16 px wide); a flag still over MAX_BYTES (a coat of
arms: Serbia's is 180 kB) is drawn once at RASTER (three times the 16x12 px the page
shows) and shipped as an SVG holding that PNG, about 2 kB. The package's licence is kept
beside them. Drawing needs cairosvg (pip install cairosvg), only to run this tool.
FID (players under FIDE's own flag) has no national flag: it gets a plain one with the
letters FIDE, drawn here.
"""
from __future__ import annotations

import os
import re
import shutil
import sys

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "host", "flagfall", "broadcast", "static", "flags")

FIDE_TO_ISO = dict(pair.split(":") for pair in """
AFG:af ALB:al ALG:dz AND:ad ANG:ao ANT:ag ARG:ar ARM:am ARU:aw AUS:au AUT:at AZE:az BAH:bs BRN:bh
BAN:bd BAR:bb BLR:by BEL:be BIZ:bz BEN:bj BER:bm BHU:bt BOL:bo BIH:ba BOT:bw BRA:br IVB:vg BRU:bn
BUL:bg BUR:bf BDI:bi CAM:kh CMR:cm CAN:ca CPV:cv CAY:ky CAF:cf CHA:td CHI:cl CHN:cn TPE:tw COL:co
COM:km CGO:cg COD:cd CRC:cr CIV:ci CRO:hr CUB:cu CYP:cy CZE:cz DEN:dk DJI:dj DMA:dm DOM:do ECU:ec
EGY:eg ESA:sv ENG:gb-eng GEQ:gq ERI:er EST:ee SWZ:sz ETH:et FAI:fo FIJ:fj FIN:fi FRA:fr GAB:ga
GAM:gm GEO:ge GER:de GHA:gh GRE:gr GRN:gd GUM:gu GUA:gt GCI:gg GUI:gn GUY:gy HAI:ht HON:hn HKG:hk
HUN:hu ISL:is IND:in INA:id IRI:ir IRQ:iq IRL:ie IOM:im ISR:il ITA:it JAM:jm JPN:jp JCI:je JOR:jo
KAZ:kz KEN:ke KOS:xk KUW:kw KGZ:kg LAO:la LAT:lv LBN:lb LES:ls LBR:lr LBA:ly LIE:li LTU:lt LUX:lu
MAC:mo MAD:mg MAW:mw MAS:my MDV:mv MLI:ml MLT:mt MTN:mr MRI:mu MEX:mx FSM:fm MDA:md MNC:mc MGL:mn
MNE:me MAR:ma MOZ:mz MYA:mm NAM:na NRU:nr NEP:np NED:nl NZL:nz NCA:ni NIG:ne NGR:ng MKD:mk NOR:no
OMA:om PAK:pk PLW:pw PLE:ps PAN:pa PNG:pg PAR:py PER:pe PHI:ph POL:pl POR:pt PUR:pr QAT:qa ROU:ro
RUS:ru RWA:rw SKN:kn LCA:lc VIN:vc SMR:sm STP:st KSA:sa SCO:gb-sct SEN:sn SRB:rs SEY:sc SLE:sl
SGP:sg SVK:sk SLO:si SOL:sb SOM:so RSA:za KOR:kr SSD:ss ESP:es SRI:lk SUD:sd SUR:sr SWE:se SUI:ch
SYR:sy TJK:tj TAN:tz THA:th TLS:tl TOG:tg TGA:to TTO:tt TUN:tn TUR:tr TKM:tm UGA:ug UKR:ua UAE:ae
USA:us URU:uy ISV:vi UZB:uz VAN:vu VEN:ve VIE:vn WLS:gb-wls YEM:ye ZAM:zm ZIM:zw
""".split())


MAX_BYTES = 8000
RASTER = (48, 36)
FIDE_FLAG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"><path fill="#fff" d="M0 0h640v480H0z"/>'
             '<path fill="none" stroke="#1d3f91" stroke-width="24" d="M12 12h616v456H12z"/><text x="320" y="300" '
             'fill="#1d3f91" font-family="sans-serif" font-size="190" font-weight="bold" text-anchor="middle">FIDE'
             '</text></svg>\n')


def _number(m: re.Match[str]) -> str:
    text = "%.1f" % float(m.group(0))
    text = text.rstrip("0").rstrip(".") if "." in text else text
    if text.startswith("0.") or text.startswith("-0."):
        text = text.replace("0.", ".", 1)
    return "0" if text in ("", "-", "-0") else text


def compact(svg: str) -> str:
    """The same drawing in fewer bytes: no comments, metadata or layout whitespace, numbers to 0.1."""
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<metadata.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r">\s+<", "><", svg).strip()
    svg = re.sub(r"-?\d*\.\d{2,}", _number, svg)
    return svg + "\n"


def rastered(path: str) -> str:
    """The flag at path drawn at RASTER, as an SVG holding the PNG (same 4:3 view)."""
    import base64
    try:
        import cairosvg
    except ImportError:
        raise SystemExit("make_flags: drawing a large flag needs cairosvg: pip install cairosvg") from None
    png = cairosvg.svg2png(url=path, output_width=RASTER[0], output_height=RASTER[1])
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"><image width="640" height="480" '
            'href="data:image/png;base64,%s"/></svg>\n' % base64.b64encode(png).decode("ascii"))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not os.path.isdir(os.path.join(argv[0], "flags", "4x3")):
        print("usage: python tools/make_flags.py PACKAGE_DIR  (the unpacked flag-icons npm package)", file=sys.stderr)
        return 2
    src = os.path.join(argv[0], "flags", "4x3")
    os.makedirs(OUT, exist_ok=True)
    before = after = 0
    for fed, iso in sorted(FIDE_TO_ISO.items()):
        path = os.path.join(src, iso + ".svg")
        with open(path, encoding="utf-8") as f:
            svg = f.read()
        small = compact(svg)
        if len(small.encode()) > MAX_BYTES:
            small = rastered(path)
        before, after = before + len(svg.encode()), after + len(small.encode())
        with open(os.path.join(OUT, fed + ".svg"), "w", encoding="utf-8") as f:
            f.write(small)
    with open(os.path.join(OUT, "FID.svg"), "w", encoding="utf-8") as f:
        f.write(FIDE_FLAG)
    shutil.copyfile(os.path.join(argv[0], "LICENSE"), os.path.join(OUT, "LICENSE"))
    print("%d flags written to %s: %d bytes (%d as in the package)" % (len(FIDE_TO_ISO) + 1, OUT, after, before))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
