"""Copy the federation flags the live page shows from the flag-icons npm package (MIT).

    npm pack flag-icons && tar xzf flag-icons-*.tgz      # gives ./package
    python tools/make_flags.py package                   # writes host/flagfall/broadcast/static/flags/

Players' federations come as FIDE (and FMJD) three-letter codes (WhiteFed, the TRF's
federation column); flag-icons names its files by ISO 3166 codes. This maps one to the
other and ships each flag as FED.svg, only where the SVG is small (at most MAX_BYTES: a
flag with a coat of arms is left out and the page shows the code alone), with the
package's licence beside them.
"""
from __future__ import annotations

import os
import shutil
import sys

MAX_BYTES = 8000
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


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not os.path.isdir(os.path.join(argv[0], "flags", "4x3")):
        print("usage: python tools/make_flags.py PACKAGE_DIR  (the unpacked flag-icons npm package)", file=sys.stderr)
        return 2
    src = os.path.join(argv[0], "flags", "4x3")
    os.makedirs(OUT, exist_ok=True)
    shipped, left = [], []
    for fed, iso in sorted(FIDE_TO_ISO.items()):
        path = os.path.join(src, iso + ".svg")
        if os.path.isfile(path) and os.path.getsize(path) <= MAX_BYTES:
            shutil.copyfile(path, os.path.join(OUT, fed + ".svg"))
            shipped.append(fed)
        else:
            left.append(fed)
    shutil.copyfile(os.path.join(argv[0], "LICENSE"), os.path.join(OUT, "LICENSE"))
    print("%d flags written to %s; left out (larger than %d bytes or missing): %s"
          % (len(shipped), OUT, MAX_BYTES, " ".join(left)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
