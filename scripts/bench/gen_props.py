#!/usr/bin/env python3
"""Property-heavy GeoJSON Points: ~100 mixed-type properties per feature, named like Natural
Earth's populated places (scalerank, featurecla, adm0name, pop_max, name_xx, ...), plus a
name, a description and simplestyle keys. Standard library only; same seed => same bytes.

    gen_props.py --out FILE [--count N] [--seed S]      (defaults: 200000 points, seed 1)

One feature per line: {"type":"FeatureCollection","features":[\\n{...},\\n{...}\\n]}.
Coordinates have 6 decimals and lie near a few cities.
"""
import argparse
import json
import random
import unicodedata

# name, lat, lon, adm0name, iso_a2, adm0_a3, adm1name, timezone, local name
CITIES = [
    ("Zürich", 47.3769, 8.5417, "Switzerland", "CH", "CHE", "Zürich", "Europe/Zurich", "Zürich"),
    ("Tokyo", 35.6762, 139.6503, "Japan", "JP", "JPN", "Tokyo", "Asia/Tokyo", "東京"),
    ("São Paulo", -23.5505, -46.6333, "Brazil", "BR", "BRA", "São Paulo", "America/Sao_Paulo", "São Paulo"),
    ("Moscow", 55.7558, 37.6173, "Russia", "RU", "RUS", "Moskva", "Europe/Moscow", "Москва"),
    ("New York", 40.7128, -74.0060, "United States of America", "US", "USA", "New York", "America/New_York", "New York"),
    ("Cairo", 30.0444, 31.2357, "Egypt", "EG", "EGY", "Al Qahirah", "Africa/Cairo", "القاهرة"),
    ("Kraków", 50.0647, 19.9450, "Poland", "PL", "POL", "Lesser Poland", "Europe/Warsaw", "Kraków"),
    ("Reykjavík", 64.1466, -21.9426, "Iceland", "IS", "ISL", "Capital Region", "Atlantic/Reykjavik", "Reykjavík"),
    ("Nairobi", -1.2921, 36.8219, "Kenya", "KE", "KEN", "Nairobi", "Africa/Nairobi", "Nairobi"),
    ("Seoul", 37.5665, 126.9780, "South Korea", "KR", "KOR", "Seoul", "Asia/Seoul", "서울"),
]
FEATURECLA = ["Populated place", "Admin-0 capital", "Admin-1 capital", "Admin-0 region capital", "Scientific station"]
SYMBOLS = ["circle", "star", "town-hall", "village", "marker", "building", "monument"]
COLORS = ["#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628"]
WORDS = ("the old town lies on both banks of the river with a cathedral market square bridges "
         "harbour museums university quarter tram lines and a hill with a view over the lake "
         "Altstadt Straße café größte 旧市街 駅前 набережная").split()
LANGS = ["en", "de", "es", "fr", "pt", "ru", "zh", "ja", "ko", "ar", "it", "pl"]
POP_YEARS = list(range(1950, 2040, 5))                        # pop1950 ... pop2035 (18 fields)
AREAS = ["min_areakm", "max_areakm", "min_areami", "max_areami", "min_perkm", "max_perkm",
         "min_permi", "max_permi"]
BBOX = ["min_bbxmin", "max_bbxmax", "min_bbymin", "max_bbymax", "mean_bbxc", "mean_bbyc"]
RANKS = ["max_pop10", "max_pop20", "max_pop50", "max_pop300", "max_pop310"]


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def feature(rng, i):
    city, clat, clon, adm0, iso, a3, adm1, tz, local = rng.choice(CITIES)
    lat = max(-85.0, min(85.0, clat + rng.gauss(0, 0.3)))
    lon = (clon + rng.gauss(0, 0.3) + 180.0) % 360.0 - 180.0
    suffix = rng.choice(["", " Nord", " Süd", "-Ost", " Centre", " 北", " Heights"])
    name = "%s%s %d" % (local if rng.random() < 0.5 else city, suffix, i)
    pop = int(rng.lognormvariate(9, 2))
    big = pop > 1_000_000
    p = {
        "scalerank": rng.randint(0, 10), "natscale": rng.choice([1, 3, 10, 20, 30, 50, 75, 110, 300, 600]),
        "labelrank": rng.randint(0, 8), "featurecla": rng.choice(FEATURECLA),
        "name": name, "namepar": None if rng.random() < 0.8 else city,
        "namealt": None if rng.random() < 0.7 else "%s | %s" % (city, local),
        "nameascii": unicodedata.normalize("NFKD", city).encode("ascii", "ignore").decode(),
        "adm0cap": rng.random() < 0.05, "capin": None, "worldcity": rng.random() < 0.1, "megacity": big,
        "sov0name": adm0, "sov_a3": a3, "adm0name": adm0, "adm0_a3": a3, "adm1name": adm1,
        "iso_a2": iso, "note": None if rng.random() < 0.9 else words(rng, 3, 12),
        "latitude": round(lat, 6), "longitude": round(lon, 6), "changed": round(rng.random() * 5, 1),
        "namediff": rng.randint(0, 1), "diffnote": None if rng.random() < 0.95 else "Changed scalerank.",
        "pop_max": pop, "pop_min": pop // rng.randint(1, 4), "pop_other": rng.randint(0, pop),
        "rank_max": min(14, pop.bit_length() // 2), "rank_min": rng.randint(0, 14),
        "meganame": city if big else None, "ls_name": "%s%d" % (city[:6], rng.randint(1, 9)),
        "ls_match": rng.randint(0, 2), "checkme": rng.random() < 0.02, "max_natsca": rng.choice([10, 50, 300]),
        "timezone": tz, "un_fid": rng.randint(0, 600), "un_adm0": adm0 if big else None,
        "un_lat": round(lat, 2), "un_long": round(lon, 2),
    }
    for k in RANKS:
        p[k] = rng.randint(0, pop)
    for k in AREAS:
        p[k] = round(rng.uniform(0, 3000), 3)
    for k in BBOX:
        p[k] = round((lon if "bbx" in k else lat) + rng.uniform(-0.5, 0.5), 6)
    for y in POP_YEARS:
        p["pop%d" % y] = int(pop * (0.3 + 0.04 * (y - 1950) / 5))
    p["elevation_m"] = round(rng.uniform(-5, 2500), 1)
    p["min_zoom"], p["min_label"] = round(rng.uniform(1, 10), 1), round(rng.uniform(1, 10), 1)
    p["capalt"] = rng.random() < 0.01
    p["wikidataid"] = "Q%d" % rng.randint(1, 99_999_999)
    p["wof_id"] = rng.randint(85_000_000, 1_800_000_000)
    p["geonamesid"] = rng.randint(1, 12_000_000)
    p["ne_id"] = 1_159_000_000 + i
    p["fclass_iso"], p["fclass_us"] = rng.choice(["Admin-0 capital", "Populated place", None]), None
    for lang in LANGS:
        p["name_" + lang] = local if lang in ("ja", "ru", "ar", "ko", "zh") else city
    p["tags"] = rng.sample(["city", "capital", "port", "historic", "tourism", "rail", "airport"], rng.randint(0, 3))
    p["bbox_km"] = [round(rng.uniform(-20, 0), 2), round(rng.uniform(-20, 0), 2),
                    round(rng.uniform(0, 20), 2), round(rng.uniform(0, 20), 2)]
    p["source"] = {"dataset": "ne_10m_populated_places", "version": "5.1.2", "edited": rng.random() < 0.1}
    p["description"] = words(rng, 2, 60)
    p["marker-color"] = rng.choice(COLORS)
    p["marker-symbol"] = rng.choice(SYMBOLS)
    if rng.random() < 0.3:
        p["marker-size"] = rng.choice(["small", "medium", "large"])
    props = json.dumps(p, ensure_ascii=False, separators=(",", ":"))
    return ('{"type":"Feature","properties":%s,"geometry":{"type":"Point","coordinates":[%.6f,%.6f]}}'
            % (props, lon, lat))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        for i in range(a.count):
            f.write((",\n" if i else "") + feature(rng, i))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
