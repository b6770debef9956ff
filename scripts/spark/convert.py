#!/usr/bin/env python3
"""Convert a directory of map files with geoconv on Spark executors.

    python3 scripts/spark/convert.py INPUT_DIR OUTPUT_DIR --to FORMAT [--geoconv PATH]
        [--master local[2]] [--partitions N] [--check] [--keep-going] [-- GEOCONV_OPTION...]

A line-delimited input (geojsonseq, wkt, wkbhex, polyline) converted to a line-delimited
format is sharded: Spark cuts it into partitions of whole records and RDD.pipe runs
`geoconv convert - - --from F --to T --jobs 1 --quiet` on each; the parts, in order, make
OUTPUT_DIR/NAME.EXT, byte for byte what one geoconv run writes (--check runs that one
geoconv too and compares). Every other input (KML, KMZ, GPX, Shapefile, GeoJSON, CSV,
GeoParquet, or a line file converted to a document format) is one task running
`geoconv convert FILE OUTPUT_DIR/NAME.EXT --to T`. A failure fails its task with geoconv's
message (file:line:column) and the run exits 1. Options after `--` go to every geoconv.
docs/scaling.md has the measured runs and how to run this on a cluster.
"""
import argparse
import collections
import concurrent.futures
import functools
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

HERE = os.path.dirname(os.path.abspath(__file__))
LINE_FORMATS = ("geojsonseq", "wkt", "wkbhex", "polyline")
SIDECARS = (".shx", ".dbf", ".prj", ".cpg", ".sbn", ".sbx", ".qix", ".shp.xml")
BEGIN, END = "[geoconv-error]", "[/geoconv-error]"
# Runs geoconv ("$@") on a partition and reads what it left unread (after an error, or
# --limit), so that RDD.pipe's writer thread does not hit a closed pipe. On failure it
# writes a line no output format holds (it starts with the unit separator, 0x1F) and
# geoconv's message, which RDD.pipe would leave on the executor's standard error.
PIPE_WRAPPER = """err=$(mktemp) || exit 70
"$@" 2>"$err"; rc=$?
cat >/dev/null
if [ "$rc" -ne 0 ]; then printf '\\037geoconv failed %s\\n' "$rc"; cat "$err"; else cat "$err" >&2; fi
rm -f "$err"; exit "$rc"
"""
FAILED = "\x1fgeoconv failed"


class ConversionFailed(Exception):
    """A file that did not convert, with geoconv's message."""


def note(message):
    """Prints a progress line on standard error."""
    print(f"convert.py: {message}", file=sys.stderr, flush=True)


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
    repo = os.path.dirname(os.path.dirname(HERE))
    candidates = [given] if given else ["geoconv", f"{repo}/.build/release/geoconv", f"{repo}/.build/debug/geoconv"]
    for candidate in candidates:
        if shutil.which(candidate):
            return given or shutil.which(candidate)
    sys.exit(f"convert.py: no geoconv {given or 'on PATH or in .build'}; pass --geoconv PATH")


def read_formats(geoconv):
    """Maps each extension to its format, and each format to its extensions (geoconv formats)."""
    run = subprocess.run([geoconv, "formats"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"convert.py: {geoconv} formats failed:\n{run.stderr.strip()}")
    by_extension, extensions = {}, {}
    for line in run.stdout.splitlines():
        if line.startswith(" "):
            continue  # a format's option, under its line
        name, _modes, names = line.split("\t")[:3]
        extensions[name] = names.split()
        by_extension.update((extension, name) for extension in names.split())
    return by_extension, extensions


def plan(input_dir, output_dir, to, by_extension, extensions):
    """(path, format, output) for each file in INPUT_DIR (not below) that geoconv reads.
    The output is NAME.EXT: .geojsonl for geojsonseq (.geojsons would add RS bytes), a
    .polyline6 input's extension for polyline, else the format's first; inputs sharing a
    NAME keep their whole file name (a.kml.wkt, a.gpx.wkt)."""
    inputs = []
    for name in sorted(os.listdir(input_dir)):
        path, extension = os.path.join(input_dir, name), os.path.splitext(name)[1].lower()
        if name.startswith(".") or not os.path.isfile(path) or name.lower().endswith(SIDECARS):
            continue
        if extension in by_extension:
            inputs.append((path, by_extension[extension], os.path.splitext(name)[0]))
        else:
            note(f"skipped {name}: no format reads '{extension}'")
    repeated = {stem for stem, count in collections.Counter(stem for *_, stem in inputs).items() if count > 1}
    def output(path, stem):
        polyline6 = to == "polyline" and path.lower().endswith(".polyline6")
        extension = ".geojsonl" if to == "geojsonseq" else ".polyline6" if polyline6 else extensions[to][0]
        return os.path.join(output_dir, (os.path.basename(path) if stem in repeated else stem) + extension)
    return [(path, fmt, output(path, stem)) for path, fmt, stem in inputs]


def failure(text, where):
    """The exception that fails a task, carrying where (a partition's index, or a file)
    and geoconv's message between markers."""
    return RuntimeError(f"{BEGIN}{where}\n{text.strip()}{END}")


def failure_text(exc):
    """(where, message) from a failed Spark job's exception, or None."""
    found = re.search(re.escape(BEGIN) + r"(.*?)\n(.*?)" + re.escape(END), str(exc), re.S)
    return found and (found[1], found[2])


def read_records(sc, path, partitions):
    """The file as an RDD of records in `partitions` partitions (default: the executors'
    cores) or more (Hadoop splits a local file into 32 MiB at most), and whether they are
    RS-delimited (RFC 8142 .geojsons: a record may span lines, so the file is cut at RS
    bytes) rather than lines. Lines are cut at "\\n" alone: a CR stays in its record."""
    with open(path, "rb") as f:
        rs = f.read(4096).lstrip()[:1] == b"\x1e"
    split = max(1, -(-os.path.getsize(path) // (partitions or sc.defaultParallelism)))
    conf = {"textinputformat.record.delimiter": "\x1e" if rs else "\n",
            "mapreduce.input.fileinputformat.split.maxsize": str(split)}
    pairs = sc.newAPIHadoopFile("file://" + os.path.abspath(path),
                                "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
                                "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text", conf=conf)
    return pairs.values(), rs


def feeder(rs, found):
    """A partition function giving geoconv its records, RS put back before RS-delimited ones.
    It runs in RDD.pipe's writer thread, where an exception would not fail the task: at a
    U+FFFD (Spark's reading of bytes that are not UTF-8, which geoconv would reject) it
    stops and leaves the position in `found` for finisher."""
    def feed(index, records):
        line = 1
        for value in records:
            if rs and not value:
                continue  # before the first RS
            text = "\x1e" + value if rs else value
            bad = text.find("\ufffd")
            if bad >= 0:
                column = len(text[text.rfind("\n", 0, bad) + 1:bad].encode()) + 1
                found.append(f"<stdin>:{line + text.count(chr(10), 0, bad)}:{column}: error: not UTF-8 "
                             "(Spark's text reader reads such bytes as U+FFFD), or a U+FFFD\n"
                             "  hint: geoconv on the file itself names the byte")
                return
            yield text
            line += text.rstrip("\n").count("\n") + 1
    return feed


def finisher(found):
    """A partition function passing geoconv's output lines on; at the wrapper's failure
    line, or when feeder stopped early, it fails the task with the message."""
    def finish(index, lines):
        lines = iter(lines)
        for line in lines:
            if FAILED in line:
                message = []
                try:
                    message.extend(lines)
                except Exception:  # RDD.pipe's own "exited with error code" comes last
                    pass
                raise failure("\n".join(message), index)
            yield line
        if found:
            raise failure(found[0], index)
    return finish


def relocate(text, path, partition, counts, fmt):
    """geoconv's message about a partition (read as <stdin>) placed in the whole file:
    lines, and for GeoJSON sequences the /N record pointer, shifted by those before."""
    lines, records = (sum(c[i] for c in counts[:partition]) for i in (0, 1))
    text = re.sub(r"<stdin>:(\d+)", lambda m: f"{path}:{int(m[1]) + lines}", text)
    return re.sub(r"\(at /(\d+)", lambda m: f"(at /{int(m[1]) + records}", text) if fmt == "geojsonseq" else text


def convert_lines(sc, geoconv, path, fmt, to, output, partitions, extra):
    """Converts a line-delimited file through RDD.pipe, one geoconv per partition, and
    concatenates the parts into OUTPUT; returns the number of partitions."""
    records, rs = read_records(sc, path, partitions)
    precision = ["--polyline-precision", "6"] if path.lower().endswith(".polyline6") else []
    command = ["/bin/sh", "-c", PIPE_WRAPPER, "geoconv-pipe", geoconv, "convert", "-", "-",
               "--from", fmt, "--to", to, "--jobs", "1", "--quiet", *precision, *extra]
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LD_LIBRARY_PATH", "PROJ_DATA", "PROJ_LIB", "TMPDIR")}
    parts, found = output + ".parts", []  # found: shared by stages Spark pickles together
    shutil.rmtree(parts, ignore_errors=True)
    try:
        (records.mapPartitionsWithIndex(feeder(rs, found))
            .pipe(shlex.join(command), env=env, checkCode=True)
            .mapPartitionsWithIndex(finisher(found))
            .saveAsTextFile("file://" + os.path.abspath(parts)))
    except Exception as exc:
        shutil.rmtree(parts, ignore_errors=True)
        located = failure_text(exc)
        if not located or not located[0].isdigit():
            raise
        def count(values):
            values = list(values)
            yield sum(v.count("\n") if rs else 1 for v in values), sum(1 for v in values if v.strip())
        partition = int(located[0])
        counts = records.mapPartitions(count).collect() if partition else []
        raise ConversionFailed(relocate(located[1], path, partition, counts, fmt)) from None
    names = sorted(name for name in os.listdir(parts) if name.startswith("part-"))
    with open(output + ".tmp", "wb") as merged:
        for name in names:
            with open(os.path.join(parts, name), "rb") as part:
                shutil.copyfileobj(part, merged, 1 << 20)
    os.replace(output + ".tmp", output)  # no partial OUTPUT, as geoconv itself
    shutil.rmtree(parts)
    return len(names)


def check_identical(geoconv, path, to, output, extra):
    """Runs one geoconv over the whole file and compares its output with OUTPUT byte for
    byte; returns the number of lines, or raises ConversionFailed at the first difference."""
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
                    spark, alone = ("(end of file)" if line is None else repr(line) for line in (b, a))
                    raise ConversionFailed(f"--check: {output} differs from one geoconv run at line {number}:\n"
                                           f"  spark:   {spark}\n  geoconv: {alone}")
    return number


def convert_line_file(sc, geoconv, args, extra, path, fmt, output):
    """Converts one line file through RDD.pipe (and compares, --check); returns its failure."""
    clock = time.monotonic()
    try:
        parts = convert_lines(sc, geoconv, path, fmt, args.to, output, args.partitions, extra)
        done = f"{path} -> {output}: {parts} partitions through RDD.pipe, {time.monotonic() - clock:.1f} s"
        if args.check:
            lines = check_identical(geoconv, path, args.to, output, extra)
            done += f"; identical to one geoconv run, {lines} line{'' if lines == 1 else 's'}"
        note(done)
        return []
    except ConversionFailed as exc:
        return [(path, str(exc))]


def convert_whole_files(sc, geoconv, args, extra, jobs):
    """Converts each (path, output) in its own task; returns [(path, message)] for the
    failures (all of them with --keep-going; else the first, which fails the job)."""
    def convert(job):
        path, output = job
        run = subprocess.run([geoconv, "convert", path, output, "--to", args.to, "--quiet", *extra],
                             capture_output=True, text=True, errors="replace")
        message = run.stderr.strip() or f"{path}: geoconv exited with status {run.returncode}"
        if run.returncode == 0 or args.keep_going:
            return [(path, message)] if run.returncode else []
        raise failure(message, path)
    clock = time.monotonic()
    try:
        failed = sum(sc.parallelize(jobs, len(jobs)).map(convert).collect(), [])
    except Exception as exc:
        if not failure_text(exc):
            raise
        failed = [failure_text(exc)]
    note(f"{len(jobs)} whole files, one task each, {time.monotonic() - clock:.1f} s"
         + (f": {len(failed)} failed" if failed else ""))
    return failed


def start_spark(master):
    """A SparkContext on --master, else spark-submit's, else local[2]. When this script
    starts the JVM, Spark logs errors only (log4j2.properties), and a local JVM starts
    faster (C1 compiler, serial collector: the work is geoconv's, not the JVM's)."""
    warnings.filterwarnings("ignore", category=FutureWarning)  # PySpark's pandas-version notice
    from pyspark import SparkConf, SparkContext
    conf = SparkConf().setAppName("geoconv").set("spark.ui.enabled", "false")
    conf.set("spark.ui.showConsoleProgress", "false")
    if "PYSPARK_GATEWAY_PORT" not in os.environ:  # not under spark-submit, whose JVM runs
        master = master or "local[2]"
        options = f"-Dlog4j2.configurationFile={HERE}/log4j2.properties"
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            options += " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
        conf.setIfMissing("spark.driver.extraJavaOptions", options)
    sc = SparkContext(conf=conf.setMaster(master) if master else conf)
    sc.setLogLevel("ERROR")
    return sc


def parse_arguments():
    """The command line; the words after `--` are passed to geoconv."""
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", nargs="?")
    parser.add_argument("output_dir", nargs="?")
    parser.add_argument("--to", help="the output format (see geoconv formats)")
    parser.add_argument("--geoconv", help="the geoconv binary, at this path on every executor")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[2])")
    parser.add_argument("--partitions", type=int, help="partitions per line file (default: the cores; 32 MiB at most each)")
    parser.add_argument("--check", action="store_true", help="compare each sharded output with one geoconv run")
    parser.add_argument("--keep-going", action="store_true", help="report failed files and go on")
    parser.add_argument("--setup-only", action="store_true", help="install what is missing, then stop")
    args = parser.parse_args(argv[:cut])
    if not args.setup_only and not (args.input_dir and args.output_dir and args.to):
        parser.error("INPUT_DIR, OUTPUT_DIR and --to are required")
    return args, argv[cut + 1:]


def main():
    """Converts every input, up to 4 files' jobs at once; exits 1 if any failed or differed."""
    args, extra = parse_arguments()
    ensure_dependencies()
    if args.setup_only:
        return 0
    geoconv = find_geoconv(args.geoconv)
    by_extension, extensions = read_formats(geoconv)
    if args.to not in extensions:
        sys.exit(f"convert.py: --to {args.to}: not a format of {geoconv} ({', '.join(extensions)})")
    inputs = plan(args.input_dir, args.output_dir, args.to, by_extension, extensions)
    for path, _, output in inputs:
        if os.path.abspath(path) == os.path.abspath(output):
            sys.exit(f"convert.py: {output} would replace its input: choose another OUTPUT_DIR")
    os.makedirs(args.output_dir, exist_ok=True)
    started = time.monotonic()
    sc = start_spark(args.master)
    note(f"Spark {sc.version} on {sc.master} started in {time.monotonic() - started:.1f} s; {geoconv}")
    sharded = args.to in LINE_FORMATS
    jobs = [functools.partial(convert_line_file, sc, geoconv, args, extra, path, fmt, output)
            for path, fmt, output in inputs if sharded and fmt in LINE_FORMATS]
    whole = [(path, output) for path, fmt, output in inputs if not (sharded and fmt in LINE_FORMATS)]
    if whole:
        jobs.append(functools.partial(convert_whole_files, sc, geoconv, args, extra, whole))
    failures = []
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(job) for job in jobs]
        for future in concurrent.futures.as_completed(futures):
            failures += future.result()
            if failures and not args.keep_going:
                for pending in futures:
                    pending.cancel()
    sc.stop()
    order = {path: index for index, (path, *_) in enumerate(inputs)}
    for path, message in sorted(failures, key=lambda failed: order.get(failed[0], len(order))):
        print(f"convert.py: FAILED {path}:\n{message}", file=sys.stderr)
    note(f"{'failed' if failures else 'done'}: {len(inputs)} input files, {time.monotonic() - started:.1f} s in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
