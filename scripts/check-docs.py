#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The docs against the binary: exits 1 naming each place they disagree.

Usage: check-docs.py BPFBENCH [--root DIR] [--doc FILE]... [--examples]

The binary is asked what it takes (its --help, every subcommand's and every
benchmark's), so the checks follow whatever the option tables say today:

  options   every option named in README.md, doc/*.md and the man page's
            source (or the --doc files given) is one a --help names: on a
            `bpfbench` command line, one of that command's (a benchmark's
            or subcommand's, and the global ones where that command takes
            them); in prose, one of any; abbreviations as the parser takes
            them; options of other tools are listed in FOREIGN below
  helps     every option a --help lists (global, subcommand, benchmark) is
            documented: in doc/usage.md or the man page (as gen-man writes it)
  usage.md  doc/usage.md is what `bpfbench gen-usage doc/usage.md.in` writes
            (make usage-md writes it again)
  widths    every line of an example (a fenced code block) fits 120 columns
  examples  (--examples) README's `$ bpfbench ...` lines run, at -w0 -d1, in
            a temporary directory, and their output has the shapes the README
            shows (the lines that start as KEYS do)

With --doc FILE only those files are read, for the option and width checks
(tests/docs.t plants a stale option in a copy this way).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

WIDTH = 120
OPT = re.compile(r'(?<![\w/-])--([A-Za-z][A-Za-z0-9_\\-]*)')
# An option a --help lists: at a line's start, after its short form.
DEFINED = re.compile(r'^\s{0,8}(?:-[A-Za-z0-9], )?--([A-Za-z][\w-]*)')
# Options of other programs that the docs name, each with the program.
FOREIGN = {
	'strip-components': 'tar', 'wildcards': 'tar',
	'global': 'git config', 'add': 'git config', 'local': 'git clone',
	'export-markdown': 'hyperfine', 'fair-sched': 'valgrind',
	'graph': 'scripts/check-includes.py', 'timeout': 'scripts/vm/run.sh',
	'trials': 'tests/calib', 'real': 'tests/calib', 'same': 'tests/calib', 'check': 'tests/calib',
	'opt': 'the syntax: --opt V or --opt=V',
}
# Options the binary takes but leaves out of --help: the tests' own aids (usage.md says so).
HIDDEN = {'rb-total', 'rb-corrupt-seq', 'count'}
# Subcommands whose command line also takes run options (the sides, the steps, the benchmark).
RUN_LIKE = {'suite', 'ab', 'bisect'}
# The output lines of an example whose shape is checked: what they start with.
KEYS = re.compile(r'^(Setting up|Benchmark \'|Iter |Stats: |Summary: |Runs: |Profile: |Counters: |'
		  r'Conditions: |[AB]: |\d+ pairs |  metric |\S+: .*\b(faster|slower|equal|cannot tell|'
		  r'no verdict|higher|lower|better|worse)\b|=+$|\S+: recorded |\d+ change points? |Gate: )')
VERDICTS = r'(faster|slower|equal|cannot tell|no verdict|higher|lower|better|worse)'


def norm(name):
	return name.replace('\\', '').replace('_', '-').rstrip('-')


def run(argv, **kw):
	p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
	return p.returncode, p.stdout, p.stderr


class Helps:
	"""What the binary says it takes: each --help's options."""

	def __init__(self, binary):
		self.bin = binary
		_, self.global_text, _ = run([binary, '--help'])
		self.subs = self.subcommands(self.global_text)
		_, lst, _ = run([binary, '--list'])
		self.benchs = [l.split()[0] for l in lst.splitlines() if l.strip()]
		self.text = {'': self.global_text}
		for name in self.subs + self.benchs:
			_, out, err = run([binary, name, '--help'])
			self.text[name] = out + err
		self.named = {k: {norm(m) for m in OPT.findall(t)} for k, t in self.text.items()}
		self.defined = {k: self.defined_in(t) for k, t in self.text.items()}
		self.any = set().union(*self.named.values())

	@staticmethod
	def subcommands(text):
		"""The subcommands --help lists, under its 'Subcommands' heading."""
		out, on = [], False
		for line in text.splitlines():
			if line.startswith('Subcommands'):
				on = True
			elif on and not line.strip():
				break
			elif on:
				out.append(line.split()[0])
		return out

	@staticmethod
	def defined_in(text):
		return {norm(m.group(1)) for m in map(DEFINED.match, text.splitlines()) if m}

	def allowed(self, ctx):
		"""The options a command line of ctx ('' global, a subcommand, a benchmark) takes."""
		if ctx in self.subs:
			extra = self.any if ctx in RUN_LIKE else set()
			return self.named[ctx] | extra
		return self.named[''] | self.named.get(ctx, set())

	def known(self, name, allowed):
		if name in allowed or name in HIDDEN or name in FOREIGN:
			return True
		# the parser's abbreviations: a unique prefix of one option
		return len(name) >= 3 and len([a for a in allowed if a.startswith(name)]) == 1


def fenced(lines):
	"""(index, line, in_code) for each line of a Markdown file, a code line without the
	indentation of its fence (a block in a list item is indented with it)."""
	code, indent = False, 0
	for i, line in enumerate(lines):
		if line.lstrip().startswith('```'):
			code = not code
			indent = len(line) - len(line.lstrip())
			yield i, line, None
			continue
		if code:
			line = line[min(indent, len(line) - len(line.lstrip(' '))):]
		yield i, line, code


def command_words(line):
	"""The words after 'bpfbench' on a line that runs it, or None."""
	m = re.search(r'(?:^|[\s$;(`])(?:\S*/)?bpfbench\s+(.*)$', line)
	if not m:
		return None
	text = m.group(1).split('  #')[0].split(' # ')[0]
	try:
		return shlex.split(text, comments=False)
	except ValueError:
		return text.split()


def context(helps, words):
	"""The index of the first word naming a subcommand or a benchmark, and that word."""
	at = next((i for i, w in enumerate(words) if w in helps.subs or w in helps.benchs), None)
	return (at, words[at]) if at is not None else (None, '')


def word_allowed(helps, words, i, at, ctx):
	"""The options words[i] may name: a quoted run line's (ab's sides) are its benchmark's."""
	if ' ' in words[i]:
		_, side = context(helps, words[i].split())
		if side in helps.benchs:
			return helps.allowed(side)
	if ctx in helps.benchs:		# a benchmark's options go before or after its name
		return helps.allowed(ctx)
	return helps.allowed('' if at is None or i < at else ctx)


def check_line(helps, where, line, code, errors):
	words = command_words(line) if code else None
	if words is not None:
		at, ctx = context(helps, words)
		for i, w in enumerate(words):
			for name in map(norm, OPT.findall(w)):
				if not helps.known(name, word_allowed(helps, words, i, at, ctx)):
					errors.append(f'{where}: --{name} is not an option of '
						      f'{"bpfbench " + ctx if ctx else "bpfbench"} (its --help)')
		return
	for name in map(norm, OPT.findall(line)):
		if not helps.known(name, helps.any):
			errors.append(f'{where}: --{name} is in no --help of bpfbench')


def check_doc(helps, path, errors, widths=True):
	with open(path, encoding='utf-8') as f:
		lines = f.read().split('\n')
	md = path.endswith('.md')
	shown = os.path.relpath(path) if not os.path.relpath(path).startswith('..') else path
	for i, line, code in (fenced(lines) if md else ((i, l, False) for i, l in enumerate(lines))):
		if code is None:
			continue
		where = f'{shown}:{i + 1}'
		if md and code and widths and len(line.expandtabs(8)) > WIDTH:
			errors.append(f'{where}: an example line of {len(line.expandtabs(8))} columns '
				      f'(at most {WIDTH})')
		if not line.startswith(';'):	# the man page source's comments
			check_line(helps, where, line, code, errors)


def check_helps(helps, root, errors):
	"""Every option a --help lists is in usage.md or the man page."""
	with open(os.path.join(root, 'doc/usage.md'), encoding='utf-8') as f:
		documented = {norm(m) for m in OPT.findall(f.read())}
	rc, man, err = run([helps.bin, 'gen-man', os.path.join(root, 'doc/bpfbench.1.scd.in')])
	if rc:
		errors.append(f'gen-man failed: {err.strip()}')
	documented |= {norm(m) for m in OPT.findall(man)}
	for ctx, names in sorted(helps.defined.items()):
		for name in sorted(names - documented):
			errors.append(f'--{name} ({"bpfbench " + ctx if ctx else "bpfbench"} --help) is '
				      'documented neither in doc/usage.md nor in the man page')


def check_usage_md(helps, root, errors):
	rc, out, err = run([helps.bin, 'gen-usage', os.path.join(root, 'doc/usage.md.in')])
	with open(os.path.join(root, 'doc/usage.md'), encoding='utf-8') as f:
		have = f.read()
	if rc or out != have:
		errors.append('doc/usage.md is not what the binary writes from doc/usage.md.in '
			      f'(run make usage-md){": " + err.strip() if rc else ""}')


# ---- README's examples ----

def examples(path):
	"""For each fenced block with '$ bpfbench' lines: [(command, the output lines shown)]."""
	with open(path, encoding='utf-8') as f:
		lines = f.read().split('\n')
	blocks, cur = [], []
	for _, line, code in fenced(lines):
		if code is None:	# a fence: a block ends (or starts)
			if cur:
				blocks.append(cur)
			cur = []
		elif code and line.startswith('$ '):
			cur.append((line[2:], []))
		elif code and cur:
			cur[-1][1].append(line)
	return blocks


def runnable(cmd):
	"""Whether an example runs here: no VM, no PostgreSQL, no kernel tree."""
	return (re.match(r'(\w+=\S+ )*bpfbench ', cmd) and '--kernel' not in cmd and
		'postgresql://' not in cmd and ' bisect ' not in cmd)


def short(cmd):
	"""The command at -w0 -d1: every warm-up and duration substituted."""
	cmd = re.sub(r'(?<![\w-])(-w\s*|--warmup[= ])[0-9.]+', '-w0', cmd)
	return re.sub(r'(?<![\w-])(-d\s*|--duration[= ])[0-9.]+', '-d1', cmd)


def shape(line):
	"""A shown output line as a pattern: its figures, verdicts and spacing free."""
	m = re.match(r'^(\S+): .*\b' + VERDICTS + r'\b', line)
	if m and not re.match(r'^(Stats|Summary|Iter|Runs|Conditions|Profile|Counters):', line):
		return re.compile('^' + re.escape(m.group(1)) + ': .*' + VERDICTS)
	m = re.match(r'^(\S+): recorded \(\d+ runs?, ', line)
	if m:	# then the host and kernel the file names: this machine's
		return re.compile('^' + re.escape(m.group(1)) + r': recorded \(\d+ runs?, ')
	out, pos = '', 0
	for m in re.finditer(r'[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?|' + VERDICTS + r'|\s+', line):
		out += re.escape(line[pos:m.start()])
		tok = m.group(0)
		if tok.isspace():
			out += r'\s+'
		elif re.match(VERDICTS, tok):
			out += VERDICTS
		else:
			# figures are padded to their width: "( 95.583us)" is "(141.438us)"'s shape
			out += r'\s*[-+]?(?:\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf)'
		pos = m.end()
	out += re.escape(line[pos:])
	# a unit's SI prefix follows the figure (k/M ops/s, KiB/MiB), a trigger its own words
	out = re.sub(r'(?:\\ )?(?:[kKMG]|\\ [kKMG])(?=iB|/s| ops)', '[kKMG]?', out)
	out = out.replace(r'[kKMG]?iB', r'[kKMG]?iB')
	out = re.sub(r'\\\(trigger.*?\\\)', r'\\(trigger [^)]*\\)', out)
	# the profile's event: cycles where a PMU answers, else cpu-clock
	out = out.replace(r'Profile:\s+cpu\-clock', r'Profile:\s+\S+')
	return re.compile('^' + out.rstrip() + r'\s*$')


def check_examples(binary, root, errors):
	bindir = tempfile.mkdtemp(prefix='bpfbench-docs-bin.')
	os.symlink(os.path.abspath(binary), os.path.join(bindir, 'bpfbench'))
	env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get('PATH', ''))
	env.pop('BPFBENCH_DB', None)
	readme = os.path.join(root, 'README.md')
	n = 0
	for cmds in examples(readme):
		work = tempfile.mkdtemp(prefix='bpfbench-docs.')
		# --record's default database is the user's: here, the block's own
		env['XDG_DATA_HOME'] = os.path.join(work, 'data')
		for cmd, shown in cmds:
			if not runnable(cmd):
				continue
			text = short(cmd.split('  #')[0].strip())
			p = subprocess.run(['bash', '-c', text], cwd=work, env=env, stdout=subprocess.PIPE,
					   stderr=subprocess.STDOUT, text=True, timeout=300)
			n += 1
			got = p.stdout.splitlines()
			print(f'# ran: {text} (exit {p.returncode}, {len(got)} lines)')
			if p.returncode not in (0, 5):
				errors.append(f'README example {text!r}: exit {p.returncode}: '
					      + ' | '.join(got[-3:]))
				continue
			for line in shown:
				if not KEYS.match(line):
					continue
				pat = shape(line)
				if not any(pat.match(g) for g in got):
					errors.append(f'README example {text!r}: no line has the shape of '
						      f'{line!r}\n  (pattern {pat.pattern})\n  got: '
						      + '\n       '.join(got))
		subprocess.run(['rm', '-rf', work])
	subprocess.run(['rm', '-rf', bindir])
	if not n:
		errors.append('README.md: no example ran ($ bpfbench ... lines in fenced blocks)')


def main(argv):
	ap = argparse.ArgumentParser(description='the docs against the binary (see the top of this file)')
	ap.add_argument('binary')
	ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
	ap.add_argument('--doc', action='append', default=[])
	ap.add_argument('--examples', action='store_true')
	a = ap.parse_args(argv)
	errors = []
	helps = Helps(a.binary)
	if not helps.subs or not helps.benchs:
		errors.append(f'{a.binary} --help lists no subcommands, or --list no benchmarks')
	if a.doc:
		for d in a.doc:
			check_doc(helps, d, errors)
	elif a.examples:
		check_examples(a.binary, a.root, errors)
	else:
		doc = os.path.join(a.root, 'doc')
		names = ['README.md'] + sorted('doc/' + n for n in os.listdir(doc) if n.endswith('.md'))
		for d in names + ['doc/bpfbench.1.scd.in']:
			check_doc(helps, os.path.join(a.root, d), errors)
		check_helps(helps, a.root, errors)
		check_usage_md(helps, a.root, errors)
	for e in errors:
		print('check-docs: ' + e, file=sys.stderr)
	return 1 if errors else 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
