% Tests: the gate options of flash-linear-attention's KDA / GDN kernels that
% map onto this library's gate: 'SafeGate' (FLA's safe_gate) and the
% 'LowerBound' form without 'ALog' (docs/recurrence.md, "SafeGate and the
% lower-bound gate").  Every path (recurrent and chunked, forward and
% backward, KDA and GDN): values against the plain-Octave reference,
% gradients against central differences in double, bad inputs.
% Run with  test test_gate_options  or through validation/run_tests.m.

%!function P = raw_problem (op, fn_chunk)
%!  % a raw gate for 'GateInKernel', with DtBias, on the chunked or recurrent pair
%!  P = rand_problem (op, 'K', 5, 'V', 4, 'T', 9, 'HV', 2, 'H', 1, 'Seed', 3);
%!  P.g = randn (size (P.g));
%!  if (fn_chunk)
%!    P.fwd = [op '_chunk'];
%!    P.bwd = [op '_chunk_bwd'];
%!  else
%!    P.fwd = [op '_recurrent'];
%!    P.bwd = [op '_recurrent_bwd'];
%!  end
%!  if (strcmp (op, 'kda'))
%!    P.dtb = 0.5 * randn (5, 2);
%!  else
%!    P.dtb = 0.5 * randn (2, 1);
%!  end
%!endfunction

%!test
%! % no ALog with LowerBound: gate = lb sigmoid (g + DtBias), on every path,
%! % equal to passing that gate precomputed; dALog is []
%! for op = {'kda', 'gdn'}
%!   for chunked = [false, true]
%!     P = raw_problem (op{1}, chunked);
%!     opts = {'GateInKernel', true, 'LowerBound', -3, 'DtBias', P.dtb, 'ChunkSize', 4};
%!     gate = ref_gate (op{1}, P.g, [], P.dtb, -3);
%!     [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, opts{:});
%!     [o2, S2] = feval (P.fwd, P.q, P.k, P.v, gate, P.beta, 'ChunkSize', 4);
%!     assert (o1, o2, 1e-12 * max (abs (o2(:))));
%!     assert (S1, S2, 1e-12 * max (abs (S2(:))));
%!     d = cell (1, 8);
%!     [d{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, o1, S1, opts{:});
%!     assert (isempty (d{7}));
%!     assert (size (d{8}), size (P.dtb));
%!   end
%! end

%!test
%! % gradients of the ALog-less LowerBound form (and with SafeGate), double
%! for op = {'kda', 'gdn'}
%!   for chunked = [false, true]
%!     P = raw_problem (op{1}, chunked);
%!     for sg = [false, true]
%!       opts = {'GateInKernel', true, 'LowerBound', -4, 'DtBias', P.dtb, ...
%!               'SafeGate', sg, 'ChunkSize', 4};
%!       res = fd_check (P.fwd, P.bwd, P, opts);
%!       assert (all ([res.pass]), '%s %s SafeGate %d: %s', op{1}, P.fwd, sg, ...
%!               strjoin ({res(~[res.pass]).name}, ', '));
%!     end
%!   end
%! end

%!test
%! % SafeGate with GateInKernel is the LowerBound form with ALog: bit-identical
%! % to the call without SafeGate, and equal to the reference gate
%! for op = {'kda', 'gdn'}
%!   for chunked = [false, true]
%!     P = raw_problem (op{1}, chunked);
%!     a = [0.2; -0.4];
%!     base = {'GateInKernel', true, 'ALog', a, 'DtBias', P.dtb, 'LowerBound', -5};
%!     [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, base{:}, 'SafeGate', true);
%!     [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, base{:});
%!     assert (isequal (o1, o2) && isequal (S1, S2));
%!     gate = ref_gate (op{1}, P.g, a, P.dtb, -5);
%!     o3 = feval (P.fwd, P.q, P.k, P.v, gate, P.beta);
%!     assert (o1, o3, 1e-12 * max (abs (o3(:))));
%!     res = fd_check (P.fwd, P.bwd, P, [base, {'SafeGate', true}]);
%!     assert (all ([res.pass]));
%!   end
%! end

%!test
%! % SafeGate without GateInKernel: a gate inside [lb, 0) is used as given
%! % (results bit-identical to the call without SafeGate), single and double
%! for cls = {'double', 'single'}
%!   for op = {'kda', 'gdn'}
%!     P = rand_problem (op{1}, 'K', 5, 'V', 4, 'T', 9, 'GateStrength', 2, ...
%!                       'Class', cls{1}, 'Seed', 4);
%!     P.g = min (P.g, -eps (cls{1}));        % strictly below 0
%!     for fn = {'_recurrent', '_chunk'}
%!       f = [op{1} fn{1}];
%!       [o1, S1] = feval (f, P.q, P.k, P.v, P.g, P.beta, 'SafeGate', true, 'LowerBound', -2);
%!       [o2, S2] = feval (f, P.q, P.k, P.v, P.g, P.beta);
%!       assert (isequal (o1, o2) && isequal (S1, S2) && isa (o1, cls{1}));
%!     end
%!   end
%! end

%!test
%! % bad inputs: every one an identified error, on all eight functions
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 4, 'V', 3, 'T', 6, 'GateStrength', 2, 'Seed', 5);
%!   g_out = P.g;
%!   g_out(end) = -2.5;                       % below LowerBound = -2
%!   g_zero = P.g;
%!   g_zero(1) = 0;                           % [lb, 0) excludes 0
%!   cases = {P.g,    {'SafeGate', true}, 'needs ''LowerBound''';
%!            P.g,    {'SafeGate', true, 'LowerBound', -6}, 'must lie in \[-5, 0\)';
%!            g_out,  {'SafeGate', true, 'LowerBound', -2}, 'every g must lie';
%!            g_zero, {'SafeGate', true, 'LowerBound', -2}, 'every g must lie';
%!            P.g,    {'GateInKernel', true}, 'needs ''ALog''.*or ''LowerBound'''};
%!   for fn = {'_recurrent', '_chunk', '_recurrent_bwd', '_chunk_bwd'}
%!     f = [op{1} fn{1}];
%!     for i = 1:rows (cases)
%!       args = {P.q, P.k, P.v, cases{i, 1}, P.beta};
%!       if (numel (fn{1}) > 7 && strcmp (fn{1}(end-3:end), '_bwd'))
%!         args = [args, {P.dout, []}];
%!       end
%!       try
%!         feval (f, args{:}, cases{i, 2}{:});
%!         error ('%s case %d: no error', f, i);
%!       catch err
%!         assert (err.identifier, [op{1} ':badOption']);
%!         assert (~isempty (regexp (err.message, cases{i, 3}, 'once')), err.message);
%!       end
%!     end
%!   end
%! end
