#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The include graph's rules and a family's silence (doc/architecture.md); exits 1 naming each break.

A unit is a file's folder and stem: X.c, X.h and X's internal header
X_int.h are one, so the graph is what one piece of code needs of another,
not only header order; a family's folder benchs/FAMILY/ is one unit.
Rules:

  1. no cycle: the units of src/ and benchs/ form a graph without loops,
     so every layer calls down only;
  2. a family sees only the contract: a file under benchs/ includes, of
     the core (src/), bench.h alone; its own folder and bpf/ are its own;
  3. the core knows no benchmark: nothing under src/ includes benchs/;
  4. the layers' order: a folder includes only the folders of the layers
     below its own (LAYERS, top first; folders on one layer include none
     of each other), so no arrow of the tree runs back up;
  5. a family prints nothing: no printf/puts/fwrite family call and no
     stdout/stderr under benchs/ (its figures, totals and notes are the
     result's, which the reporters draw; errmsg/skipmsg/vmsg are the
     diagnostics' own road).

Usage: check-includes.py [--graph] [ROOT]   (ROOT: the checkout, default
this script's); --graph prints the unit graph and its cycles, and exits 0.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CONTRACT = 'bench.h'
# Top first; the folders of one entry are one layer.
LAYERS = [
	('src/cli',),			# the command line: main, help, completion, man page
	('src/orchestrate',),		# suites, sweeps, ab, --kernel
	('src/history',),		# bpfbench db
	('src/compare', 'src/plot'),	# bpfbench compare; bpfbench plot
	('src/readback',),		# result files read back
	('src/output',),		# reporters and exports
	('benchs',),			# the families, beside their BPF programs
	('src/run',),			# the runner, the result, and its side of the contract
	('src/args',),			# a command line into a run_spec
	('src/bench',),			# the contract, the option engine, triggers
	('src/stats', 'src/kernel'),	# statistics; kernel probes and files
	('src/util', 'bpf'),		# messages and helpers; what every BPF side shares
]
PRINT = re.compile(r'\b(v?f?printf|dprintf|f?puts|f?putc|putchar|fwrite|perror)\s*\(|'
		   r'\b(stdout|stderr)\b')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def sources(root):
	for top in ('src', 'benchs', 'bpf'):
		for d, _, names in os.walk(os.path.join(root, top)):
			for n in sorted(names):
				if n.endswith(('.c', '.h')):
					yield os.path.relpath(os.path.join(d, n), root)


def unit(path):
	"""X.c, X.h and X_int.h are unit X; a family's folder is one unit."""
	parts = path.split(os.sep)
	if parts[0] == 'benchs' and len(parts) > 2:
		return os.path.join(*parts[:2])
	d, n = os.path.split(path)
	stem = n.split('.')[0]
	if stem.endswith('_int'):
		stem = stem[:-len('_int')]
	return os.path.join(d, stem)


def layer(path):
	"""The index of path's layer in LAYERS, or None (outside them)."""
	for i, folders in enumerate(LAYERS):
		for d in folders:
			if path == d or path.startswith(d + os.sep):
				return i
	return None


def folder(path):
	"""src/X for the core, benchs or bpf otherwise: what one layer's folders are."""
	parts = path.split(os.sep)
	return os.path.join(*parts[:2]) if parts[0] == 'src' else parts[0]


def layer_breaks(edges):
	out = []
	for f in sorted(edges):
		for t in sorted(edges[f]):
			a, b = layer(f), layer(t)
			if a is None or b is None or folder(f) == folder(t):
				continue
			if b <= a:
				out.append(f'an include runs back up: {f} ({folder(f)}) includes {t} '
					   f'({folder(t)}), which is not below it')
	return out


def family_prints(root, files):
	"""Every print call of a family's C file (comments and strings left out)."""
	out = []
	for f in files:
		if not f.startswith('benchs' + os.sep) or f.endswith('.bpf.c'):
			continue
		with open(os.path.join(root, f), errors='replace') as fh:
			text = COMMENT.sub(lambda m: '""' if m.group(0).startswith('"') else
					   '\n' * m.group(0).count('\n'), fh.read())
		for n, line in enumerate(text.split('\n'), 1):
			m = PRINT.search(line)
			if m:
				out.append(f'a family prints: {f}:{n}: {m.group(0).rstrip("(").strip()} '
					   '(figures, totals and notes go into the result)')
	return out


def resolve(root, path, name, search):
	"""The checkout file path's include "name" means, or None (system, generated)."""
	for d in [os.path.dirname(path)] + search:
		cand = os.path.normpath(os.path.join(d, name))
		if os.path.isfile(os.path.join(root, cand)):
			return cand
	return None


def graph(root):
	files = list(sources(root))
	search = sorted({os.path.dirname(f) for f in files if f.startswith('src' + os.sep)})
	search.append('bpf')
	edges = {}
	for f in files:
		with open(os.path.join(root, f), errors='replace') as fh:
			text = fh.read()
		for name in INCLUDE.findall(text):
			to = resolve(root, f, name, search)
			if to:
				edges.setdefault(f, set()).add(to)
	return files, edges


def cycles(units):
	"""Strongly connected components of more than one unit (Tarjan)."""
	index, low, stack, on, out = {}, {}, [], set(), []

	def visit(v):
		index[v] = low[v] = len(index)
		stack.append(v)
		on.add(v)
		for w in sorted(units.get(v, ())):
			if w not in index:
				visit(w)
				low[v] = min(low[v], low[w])
			elif w in on:
				low[v] = min(low[v], index[w])
		if low[v] == index[v]:
			comp = []
			while True:
				w = stack.pop()
				on.discard(w)
				comp.append(w)
				if w == v:
					break
			if len(comp) > 1:
				out.append(sorted(comp))

	sys.setrecursionlimit(10000)
	for v in sorted(units):
		if v not in index:
			visit(v)
	return sorted(out)


def main(argv):
	show = '--graph' in argv
	args = [a for a in argv if a != '--graph']
	root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
	files, edges = graph(root)
	units = {}
	for f, tos in edges.items():
		for t in tos:
			if unit(t) != unit(f):
				units.setdefault(unit(f), set()).add(unit(t))
	errors = []
	for comp in cycles(units):
		errors.append('cycle: ' + ' <-> '.join(comp))
	for f in sorted(edges):
		for t in sorted(edges[f]):
			if f.startswith('benchs' + os.sep) and t.startswith('src' + os.sep) \
			   and os.path.basename(t) != CONTRACT:
				errors.append(f'family sees more than {CONTRACT}: {f} includes {t}')
			if f.startswith('src' + os.sep) and t.startswith('benchs' + os.sep):
				errors.append(f'the core includes a benchmark: {f} includes {t}')
	errors += layer_breaks(edges)
	errors += family_prints(root, files)
	if show:
		for u in sorted(units):
			print(u, '->', ' '.join(sorted(units[u])))
		for e in errors:
			print(e)
		return 0
	for e in errors:
		print('check-includes: ' + e, file=sys.stderr)
	return 1 if errors else 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
