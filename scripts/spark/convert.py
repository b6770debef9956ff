#!/usr/bin/env python3
"""Convert a directory of map files with geoconv on Spark executors.

    python3 scripts/spark/convert.py INPUT_DIR OUTPUT_DIR --to FORMAT [--geoconv PATH]
        [--master local[2]] [--partitions N] [--check] [--keep-going] [-- GEOCONV_OPTION...]

A line-delimited input (geojsonseq, wkt, wkbhex, polyline) converted to a line-delimited
format is sharded: Spark reads its records into partitions and RDD.pipe runs
`geoconv convert - - --from F --to T --jobs 1 --quiet` on each; the parts, in order, make
OUTPUT_DIR/NAME.EXT, byte for byte what one geoconv run writes (--check runs that one
geoconv too and compares). Every other input (KML, KMZ, GPX, Shapefile, GeoJSON, CSV,
GeoParquet, or a line file converted to a document format) is one task:
`geoconv convert FILE OUTPUT_DIR/NAME.EXT --to T`. A failure fails its task with geoconv's
message (file:line:column) and the run exits 1. Options after `--` go to every geoconv.
docs/scaling.md has the measured runs and how to run this on a cluster.
"""
import argparse
import collections
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE_FORMATS = ("geojsonseq", "wkt", "wkbhex", "polyline")
SIDECARS = (".shx", ".dbf", ".prj", ".cpg", ".sbn", ".sbx", ".qix", ".shp.xml")
BEGIN, END = "[geoconv-error]", "[/geoconv-error]"
# Runs geoconv ("$@") on a partition. On failure it drains the rest of the partition, then
# writes a line that no output format can hold (it starts with the unit separator, 0x1F)
# followed by geoconv's message, which RDD.pipe would otherwise leave on the executor's
# standard error; finisher turns that into the task's error.
PIPE_WRAPPER = """err=$(mktemp) || exit 70
"$@" 2>"$err"; rc=$?
if [ "$rc" -ne 0 ]; then cat >/dev/null; printf '\\037geoconv failed %s\\n' "$rc"; cat "$err"
else cat "$err" >&2; fi
rm -f "$err"; exit "$rc"
"""
FAILED = "\x1fgeoconv failed"


def note(message):
    """Prints a progress line on standard error."""
    print(f"convert.py: {message}", file=sys.stderr, flush=True)


class ConversionFailed(Exception):
    """A file that did not convert, with geoconv's message."""


def ensure_dependencies():
    """Installs PySpark (from PyPI) and, as root on Debian, a Java 17 runtime if missing."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        note("installing pyspark from PyPI (first run only)")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyspark"], check=True)
    if shutil.which("java") or os.environ.get("JAVA_HOME"):
        return
    if os.geteuid() != 0 or not os.path.exists("/etc/debian_version"):
        sys.exit("convert.py: Spark needs Java 17: install it or set JAVA_HOME")
    note("installing openjdk-17-jre-headless (first run only)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "openjdk-17-jre-headless"]):
        subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)


def find_geoconv(given):
    """The geoconv to run: --geoconv, else geoconv on PATH, else the repository's build."""
    candidates = [given] if given else ["geoconv", os.path.join(REPO, ".build/release/geoconv"),
                                        os.path.join(REPO, ".build/debug/geoconv")]
    for candidate in candidates:
        if shutil.which(candidate):
            return candidate if given else shutil.which(candidate)
    sys.exit(f"convert.py: no geoconv found (tried {', '.join(candidates)}); pass --geoconv PATH")


def read_formats(geoconv):
    """Maps each extension to its format, and each format to its extensions (geoconv formats)."""
    listing = subprocess.run([geoconv, "formats"], capture_output=True, text=True, check=True).stdout
    by_extension, extensions = {}, {}
    for line in listing.splitlines():
        name, _modes, names = line.split("\t")[:3]
        extensions[name] = names.split()
        by_extension.update((extension, name) for extension in names.split())
    return by_extension, extensions


def list_inputs(input_dir, by_extension):
    """(path, format) of each file in INPUT_DIR that geoconv reads (not subdirectories)."""
    inputs = []
    for name in sorted(os.listdir(input_dir)):
        path = os.path.join(input_dir, name)
        extension = os.path.splitext(name)[1].lower()
        if name.startswith(".") or not os.path.isfile(path) or name.lower().endswith(SIDECARS):
            continue
        if extension in by_extension:
            inputs.append((path, by_extension[extension]))
        else:
            note(f"skipped {name}: no format reads '{extension}'")
    return inputs


def output_names(inputs, to, extensions):
    """NAME.EXT for each input: .geojsonl for geojsonseq (.geojsons would add RS bytes), the
    input's .polyline6 for polyline, else the format's first extension; inputs sharing a
    NAME keep their whole file name (a.kml.wkt, a.gpx.wkt)."""
    def extension(path):
        if to == "geojsonseq":
            return ".geojsonl"
        if to == "polyline" and path.lower().endswith(".polyline6"):
            return ".polyline6"
        return extensions[to][0]
    stems = [os.path.splitext(os.path.basename(path))[0] for path, _ in inputs]
    repeated = {stem for stem, count in collections.Counter(stems).items() if count > 1}
    return [(os.path.basename(path) if stem in repeated else stem) + extension(path)
            for (path, _), stem in zip(inputs, stems)]


def format_options(path):
    """What geoconv takes from a file name but must be told on standard input."""
    return ["--polyline-precision", "6"] if path.lower().endswith(".polyline6") else []


def failure(text, partition=None):
    """The exception that fails a task, carrying geoconv's message between markers."""
    return RuntimeError(f"{BEGIN}{'' if partition is None else partition}\n{text.strip()}{END}")


def failure_text(exc):
    """(partition or None, message) from a failed Spark job's exception, or None."""
    found = re.search(re.escape(BEGIN) + r"(\d*)\n(.*?)" + re.escape(END), str(exc), re.S)
    return found and (int(found[1]) if found[1] else None, found[2])


def read_records(sc, path, partitions):
    """The file as an RDD of about `partitions` partitions of records, and whether the
    records are RS-delimited (RFC 8142 .geojsons: a record may span lines, so the file is
    cut at RS bytes) rather than lines. Cut at "\\n" exactly: a CR stays in its record."""
    with open(path, "rb") as f:
        rs = f.read(4096).lstrip()[:1] == b"\x1e"
    split = max(1, -(-os.path.getsize(path) // partitions))
    conf = {"textinputformat.record.delimiter": "\x1e" if rs else "\n",
            "mapreduce.input.fileinputformat.split.maxsize": str(split)}
    pairs = sc.newAPIHadoopFile("file://" + os.path.abspath(path),
                                "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
                                "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text", conf=conf)
    return pairs.values(), rs


def feeder(rs, found):
    """A partition function giving geoconv its records, RS put back in front of each
    RS-delimited one. It runs in RDD.pipe's writer thread, where an exception would not
    fail the task: at a U+FFFD (what Spark's reader makes of bytes that are not UTF-8, which
    geoconv would reject) it stops and leaves the position in `found` for finisher."""
    def feed(index, records):
        line = 1
        for value in records:
            if rs and not value:
                continue  # before the first RS
            text = "\x1e" + value if rs else value
            bad = text.find("\ufffd")
            if bad >= 0:
                start = text.rfind("\n", 0, bad) + 1
                found.append(f"<stdin>:{line + text.count(chr(10), 0, bad)}:{len(text[start:bad].encode()) + 1}: "
                             "error: not UTF-8 (Spark's text reader reads such bytes as U+FFFD), or a U+FFFD\n"
                             "  hint: geoconv on the file itself names the byte")
                return
            yield text
            line += text.rstrip("\n").count("\n") + 1
    return feed


def finisher(found):
    """A partition function passing geoconv's output lines on; at the wrapper's failure line,
    or after a partition feeder stopped, it fails the task with the message."""
    def finish(index, lines):
        lines = iter(lines)
        for line in lines:
            if FAILED in line:
                raise failure("\n".join(lines), index)
            yield line
        if found:
            raise failure(found[0], index)
    return finish


def relocate(text, path, partition, counts, fmt):
    """geoconv's message about partition `partition` (read as <stdin>) placed in the whole
    file: lines, and for GeoJSON sequences the /N record pointer, shifted by those before."""
    lines = sum(c[0] for c in counts[:partition])
    records = sum(c[1] for c in counts[:partition])
    text = re.sub(r"<stdin>:(\d+)", lambda m: f"{path}:{int(m[1]) + lines}", text)
    return re.sub(r"\(at /(\d+)", lambda m: f"(at /{int(m[1]) + records}", text) if fmt == "geojsonseq" else text


def convert_lines(sc, geoconv, path, fmt, to, output, partitions, extra):
    """Converts a line-delimited file through RDD.pipe, one geoconv per partition."""
    records, rs = read_records(sc, path, partitions)
    command = ["/bin/sh", "-c", PIPE_WRAPPER, "geoconv-pipe", geoconv, "convert", "-", "-",
               "--from", fmt, "--to", to, "--jobs", "1", "--quiet", *format_options(path), *extra]
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LD_LIBRARY_PATH", "PROJ_DATA", "PROJ_LIB", "TMPDIR")}
    parts = output + ".parts"
    shutil.rmtree(parts, ignore_errors=True)
    found = []  # shared by the two functions: Spark pickles the pipelined stages together
    try:
        (records.mapPartitionsWithIndex(feeder(rs, found))
            .pipe(shlex.join(command), env=env, checkCode=True)
            .mapPartitionsWithIndex(finisher(found))
            .saveAsTextFile("file://" + os.path.abspath(parts)))
    except Exception as exc:
        found = failure_text(exc)
        if not found or found[0] is None:
            raise
        def count(values):
            values = list(values)
            yield (sum(v.count("\n") if rs else 1 for v in values), sum(1 for v in values if v.strip()))
        counts = records.mapPartitions(count).collect()
        raise ConversionFailed(relocate(found[1], path, found[0], counts, fmt)) from None
    merge_parts(parts, output)
    return records.getNumPartitions()


def merge_parts(parts, output):
    """Concatenates Spark's part files, in partition order, into OUTPUT (atomically)."""
    names = sorted(name for name in os.listdir(parts) if name.startswith("part-"))
    with open(output + ".tmp", "wb") as merged:
        for name in names:
            with open(os.path.join(parts, name), "rb") as part:
                shutil.copyfileobj(part, merged, 1 << 20)
    os.replace(output + ".tmp", output)
    shutil.rmtree(parts)


def check_identical(geoconv, path, to, output, extra):
    """Runs one geoconv over the whole file and compares its output with OUTPUT, byte for
    byte; returns the number of lines, or raises ConversionFailed naming the first
    differing line."""
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, os.path.basename(output))
        run = subprocess.run([geoconv, "convert", path, reference, "--to", to, "--quiet", *extra],
                             capture_output=True, text=True, errors="replace")
        if run.returncode != 0:
            raise ConversionFailed(f"--check: one geoconv run over {path} failed:\n{run.stderr.strip()}")
        with open(reference, "rb") as want, open(output, "rb") as got:
            number = 0
            for number, (a, b) in enumerate(itertools.zip_longest(want, got), 1):
                if a != b:
                    raise ConversionFailed(f"--check: {output} differs from one geoconv run at line {number}:\n"
                                           f"  spark:   {b!r}\n  geoconv: {a!r}")
    return number


def convert_whole_files(sc, geoconv, jobs, keep_going, extra):
    """Converts each (path, to, output) in its own task; returns [(path, message)] of the
    failures (with keep_going; without, the first failure fails the job)."""
    def convert(job):
        path, to, output = job
        run = subprocess.run([geoconv, "convert", path, output, "--to", to, "--quiet", *extra],
                             capture_output=True, text=True, errors="replace")
        if run.returncode == 0:
            return None
        message = run.stderr.strip() or f"geoconv exited with status {run.returncode} on {path}"
        if keep_going:
            return path, message
        raise failure(message)
    try:
        return [r for r in sc.parallelize(jobs, len(jobs)).map(convert).collect() if r]
    except Exception as exc:
        found = failure_text(exc)
        if not found:
            raise
        return [(None, found[1])]


def start_spark(master):
    """A SparkContext: --master, else spark-submit's, else local[2]; logs only errors."""
    warnings.filterwarnings("ignore", category=FutureWarning)  # PySpark's pandas-version notice
    from pyspark import SparkConf, SparkContext
    conf = SparkConf().setAppName("geoconv")
    if master or "PYSPARK_GATEWAY_PORT" not in os.environ:  # not under spark-submit
        conf.setMaster(master or "local[2]")
        if (master or "local").startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf.set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
    sc = SparkContext(conf=conf.set("spark.log.level", "ERROR"))
    sc.setLogLevel("ERROR")
    return sc


def parse_arguments():
    """The command line; options after `--` are passed to geoconv."""
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", nargs="?")
    parser.add_argument("output_dir", nargs="?")
    parser.add_argument("--to", help="the output format (geoconv formats)")
    parser.add_argument("--geoconv", help="geoconv binary (same path on every executor)")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[2])")
    parser.add_argument("--partitions", type=int, default=4, help="partitions per line file (default 4)")
    parser.add_argument("--check", action="store_true", help="compare sharded outputs with one geoconv run")
    parser.add_argument("--keep-going", action="store_true", help="report failed files and go on")
    parser.add_argument("--setup-only", action="store_true", help="install what is missing, then stop")
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if not args.setup_only and not (args.input_dir and args.output_dir and args.to):
        parser.error("INPUT_DIR, OUTPUT_DIR and --to are required")
    return args, extra


def main():
    """Converts every input; exits 1 if any failed or (--check) differed."""
    args, extra = parse_arguments()
    ensure_dependencies()
    if args.setup_only:
        return 0
    geoconv = find_geoconv(args.geoconv)
    by_extension, extensions = read_formats(geoconv)
    if args.to not in extensions:
        sys.exit(f"convert.py: --to {args.to}: not a geoconv format ({', '.join(extensions)})")
    inputs = list_inputs(args.input_dir, by_extension)
    outputs = [os.path.join(args.output_dir, name) for name in output_names(inputs, args.to, extensions)]
    os.makedirs(args.output_dir, exist_ok=True)
    started = time.monotonic()
    sc = start_spark(args.master)
    note(f"Spark {sc.version} on {sc.master} started in {time.monotonic() - started:.1f} s; {geoconv}")
    failures, whole = [], []
    for (path, fmt), output in zip(inputs, outputs):
        if fmt not in LINE_FORMATS or args.to not in LINE_FORMATS:
            whole.append((path, args.to, output))
            continue
        if failures and not args.keep_going:
            break
        try:
            clock = time.monotonic()
            parts = convert_lines(sc, geoconv, path, fmt, args.to, output, args.partitions, extra)
            done = f"{path} -> {output}: {parts} partitions through RDD.pipe, {time.monotonic() - clock:.1f} s"
            if args.check:
                lines = check_identical(geoconv, path, args.to, output, extra)
                done += f"; identical to one geoconv run ({lines} lines)"
            note(done)
        except ConversionFailed as exc:
            failures.append((path, str(exc)))
    if whole and (args.keep_going or not failures):
        clock = time.monotonic()
        failed = convert_whole_files(sc, geoconv, whole, args.keep_going, extra)
        failures += failed
        note(f"{len(whole) - len(failed)} of {len(whole)} whole files converted, one task each, {time.monotonic() - clock:.1f} s")
    sc.stop()
    for path, message in failures:
        print(f"convert.py: failed{' ' + path if path else ''}:\n{message}", file=sys.stderr)
    note(f"{'FAILED' if failures else 'done'}: {len(inputs)} inputs in {time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
