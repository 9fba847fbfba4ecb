import os
import lit.formats

config.name = "hoist"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".ll"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "CMakeLists.txt"]
config.environment["PATH"] = os.pathsep.join(
    [config.hoist_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%example_elf", config.example_elf))
config.substitutions.append(("%example_pe", config.example_pe))
config.substitutions.append(("%calls_o2", config.calls_o2))
config.substitutions.append(("%hoist_rt", config.hoist_rt))
config.substitutions.append(("%hoist_include", config.hoist_include))
# The man page and bash completion the build makes (tools/hoist/CMakeLists.txt).
config.substitutions.append(("%hoist_doc", config.hoist_doc))
# Every JSON document hoist writes against its schema (docs/schema; Debian's python3-jsonschema,
# hence the system Python).
config.substitutions.append(("%check_json_schema", "/usr/bin/python3 {} {}".format(
    os.path.join(config.test_source_root, "cli", "Inputs", "check_json_schema.py"),
    os.path.join(config.test_source_root, "..", "..", "docs", "schema"))))
# The program itself by its path, for a RUN line whose PATH finds nothing.
config.substitutions.append(("%hoist_exe", os.path.join(config.hoist_tools_dir, "hoist")))
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
# The scripts a user runs (scripts/brighten-program.sh), from the source tree.
config.substitutions.append(("%scripts", os.path.join(config.test_source_root, "..", "..", "scripts")))

# Host CPU features some translate tests need (a translation runs on the translating CPU).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        host_flags = set(next((l.split(":", 1)[1].split() for l in cpuinfo if l.startswith("flags")), []))
except OSError:
    host_flags = set()
if "pclmulqdq" in host_flags:
    config.available_features.add("pclmul")

# Built with Z3 (libz3-dev): deobfuscation proves what testing cannot.
if config.have_z3:
    config.available_features.add("z3")
