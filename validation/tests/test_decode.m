% Tests: the decode fast path of kda_recurrent / gdn_recurrent.  With the
% state in the 'KV' layout, V a multiple of 4 and no 'GV', the core steps
% in the output state itself and reads h0 where it is (no copies); any
% other call takes the padded path.  Both must give the same bits: the fast
% path against the padded one ('VK' layout, or a zero 'GV': exp(0) = 1 is
% exact), T = 1 calls chained against one call of T steps, o alone against
% [o, S], no InitialState against zeros.  Double and single.
% Run with  test test_decode  or through validation/run_tests.m.

% ---- the fast path gives the bits of the padded path --------------------------
%!test
%! for cls = {'double', 'single'}
%!   for op = {'kda', 'gdn'}
%!     P = rand_problem (op{1}, 'T', 3, 'H', 2, 'HV', 4, 'B', 2, 'K', 16, 'V', 8, ...
%!                       'InitialState', true, 'Class', cls{1});
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     % the padded path: the same state in the 'VK' layout
%!     opts = P.opts;
%!     i0 = find (strcmp (opts, 'InitialState'));
%!     opts{i0 + 1} = permute (opts{i0 + 1}, [2 1 3 4]);
%!     [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, opts{:}, 'StateLayout', 'VK');
%!     assert (isequal (o, o2) && isequal (S, permute (S2, [2 1 3 4])), ...
%!             '%s %s: KV (fast) and VK (padded) differ', op{1}, cls{1});
%!     assert (strcmp (class (o), cls{1}) && strcmp (class (S), cls{1}));
%!   end
%! end

%!test
%! % GDN with a zero GV: the padded path, the same arithmetic
%! for cls = {'double', 'single'}
%!   P = rand_problem ('gdn', 'T', 5, 'H', 2, 'HV', 2, 'B', 1, 'K', 8, 'V', 12, ...
%!                     'InitialState', true, 'Class', cls{1});
%!   [o, S] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   gv = zeros (size (P.v), cls{1});
%!   [o2, S2] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'GV', gv);
%!   assert (isequal (o, o2) && isequal (S, S2));
%! end

% ---- T = 1 calls chained = one call of T steps, to the bit ----------------------
%!test
%! for cls = {'double', 'single'}
%!   for op = {'kda', 'gdn'}
%!     kda = strcmp (op{1}, 'kda');
%!     T = 6;
%!     P = rand_problem (op{1}, 'T', T, 'H', 2, 'HV', 2, 'B', 2, 'K', 16, 'V', 16, ...
%!                       'InitialState', true, 'Class', cls{1});
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     opts = P.opts;
%!     i0 = find (strcmp (opts, 'InitialState'));
%!     St = opts{i0 + 1};
%!     ot = zeros (size (o), cls{1});
%!     for t = 1:T
%!       if (kda)
%!         gt = P.g(:, t, :, :);
%!       else
%!         gt = P.g(t, :, :);
%!       end
%!       opts{i0 + 1} = St;
%!       [ot(:, t, :, :), St] = feval (P.fwd, P.q(:, t, :, :), P.k(:, t, :, :), ...
%!                                    P.v(:, t, :, :), gt, P.beta(t, :, :), opts{:});
%!     end
%!     assert (isequal (ot, o) && isequal (St, S), '%s %s: chained steps differ', op{1}, cls{1});
%!   end
%! end

% ---- o alone, and no InitialState -------------------------------------------------
%!test
%! for cls = {'double', 'single'}
%!   for op = {'kda', 'gdn'}
%!     P = rand_problem (op{1}, 'T', 1, 'H', 4, 'HV', 4, 'B', 1, 'K', 32, 'V', 32, ...
%!                       'InitialState', true, 'Class', cls{1});
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     o1 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     assert (isequal (o, o1));
%!     % the input state is not changed by the call
%!     i0 = find (strcmp (P.opts, 'InitialState'));
%!     h0 = P.opts{i0 + 1};
%!     [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'InitialState', h0);
%!     assert (isequal (h0, P.opts{i0 + 1}) && isequal (o2, o) && isequal (S2, S));
%!     z = zeros (size (h0), cls{1});
%!     [o3, S3] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!     [o4, S4] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'InitialState', z);
%!     assert (isequal (o3, o4) && isequal (S3, S4));
%!   end
%! end

% ---- T = 0: the state passes through unchanged -----------------------------------
%!test
%! h0 = single (randn (8, 4, 2));
%! [o, S] = kda_recurrent (zeros (8, 0, 2, 'single'), zeros (8, 0, 2, 'single'), ...
%!                         zeros (4, 0, 2, 'single'), zeros (8, 0, 2, 'single'), ...
%!                         zeros (0, 2, 'single'), 'InitialState', h0);
%! assert (isequal (S, h0) && isempty (o));

% ---- the gateway's outputs_like (the bench's measure of the host's cost) ---------
%!function la = private_la_mex ()
%!  % a handle to the gateway's test build (make testing; run_tests puts
%!  % build/testing on the path): the same gateway and core as the private
%!  % la_mex, with the instruments 'outputs_like', 'last_call', 'options'
%!  la = @la_mex_testing;
%!endfunction

%!test
%! la = private_la_mex ();
%! [a, b] = la ('outputs_like', zeros (3, 1, 2, 'single'), zeros (4, 5));
%! assert (size (a), [3 1 2]);
%! assert (class (a), 'single');
%! assert (size (b), [4 5]);
%! assert (class (b), 'double');
%! id = '';
%! try
%!   [a, b] = la ('outputs_like', a);
%! catch err
%!   id = err.identifier;
%! end
%! assert (id, 'kda:internal');

% ---- the gateway's last_call (the bench's time inside the MEX) -------------------
% Where the last call's time went: plausible, non-negative parts that add up
% to the time inside; the mean over the calls since the previous query; a
% failing call and a subcommand are not counted.  (No timing thresholds.)
%!test
%! la = private_la_mex ();
%! P = rand_problem ('kda', 'T', 1, 'H', 2, 'K', 8, 'V', 4, 'InitialState', true, ...
%!                   'Class', 'single');
%! la ('last_call');                                  % the count restarts
%! for i = 1:3
%!   [o, S] = la ('kda_recurrent', P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%! end
%! la ('options');                                    % a subcommand: not a call
%! t = la ('last_call');
%! assert (t.function, 'kda_recurrent');
%! assert (t.calls, 3);
%! for x = {t, t.mean}
%!   p = x{1};
%!   parts = [p.parse p.core p.outputs];
%!   assert (all (isfinite (parts) & parts >= 0));
%!   assert (p.inside > 0);
%!   assert (sum (parts), p.inside, 1e-9 * p.inside + 1e-9);
%! end
%! assert (t.mean.inside < 1e6);                      % microseconds, not seconds
%! % the calls sorted by their state output's offset from 64 bytes: all three
%! a = t.by_alignment;
%! assert (size (a), [4 3]);
%! assert (a(:, 1)', [0 16 32 48]);
%! assert (sum (a(:, 2)), 3);
%! assert (all (a(a(:, 2) > 0, 3) > 0) && all (a(a(:, 2) == 0, 3) == 0));
%! % the next query counts from the last one; a failing call is not counted
%! try
%!   la ('kda_chunk', P.q, P.k, P.v, P.g, P.beta, 'InitialState', 1);
%! catch
%! end
%! u = la ('last_call');
%! assert (u.calls, 0);
%! assert (u.function, 'kda_recurrent');
%! assert ([u.mean.inside u.mean.parse u.mean.core u.mean.outputs], zeros (1, 4));
%! assert (u.by_alignment(:, 2:3), zeros (4, 2));
%! % any public function, backward too
%! dS = ones (size (S), 'single');
%! la ('kda_recurrent_bwd', P.q, P.k, P.v, P.g, P.beta, o, dS, P.opts{:});
%! u = la ('last_call');
%! assert ([u.calls, u.inside >= u.core, u.core >= 0], [1 1 1]);
%! assert (u.function, 'kda_recurrent_bwd');
%! assert (sum (u.by_alignment(:, 2)), 0);            % no state output of its own

% The state output is placed on a 32-byte boundary when the allocator offers
% one within two more tries (la_mx_prefer_aligned): with the heap moved
% between calls, the same bits every time, and few calls left off it.
%!test
%! la = private_la_mex ();
%! P = rand_problem ('kda', 'T', 1, 'H', 4, 'K', 128, 'V', 128, 'InitialState', true, ...
%!                   'Class', 'single');
%! [o0, S0] = la ('kda_recurrent', P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%! la ('last_call');
%! junk = {};
%! same = true;
%! for i = 1:40
%!   junk{end + 1} = zeros (1, 3 * i);                 % moves the heap
%!   [o, S] = la ('kda_recurrent', P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   same = same && isequal (o, o0) && isequal (S, S0);
%! end
%! t = la ('last_call');
%! assert (same);
%! assert (sum (t.by_alignment(:, 2)), 40);
%! assert (sum (t.by_alignment([2 4], 2)) <= 10);

% ---- kda_recurrent and gdn_recurrent as MEX files of their own name ------------
% (copies of the gateway next to their .m help files: a call skips the .m
% wrapper).  The same bits as through la_mex, the help from the .m file, one
% head on messages.
%!test
%! la = private_la_mex ();
%! for fn = {'kda_recurrent', 'gdn_recurrent'}
%!   f = fn{1};
%!   assert (~isempty (regexp (which (f), ['\.' mexext() '$'], 'once')), ...
%!           '%s is not served by its MEX file: %s', f, which (f));
%!   assert (~isempty (strfind (evalc (['help ' f]), 'recurrent form')));
%!   q = single (randn (8, 3, 2));  k = single (randn (8, 3, 2));  v = single (randn (4, 3, 2));
%!   if (f(1) == 'k')
%!     g = -single (rand (8, 3, 2));
%!   else
%!     g = -single (rand (3, 2));
%!   end
%!   b = single (rand (3, 2));  h0 = single (randn (8, 4, 2));
%!   [o1, S1] = feval (f, q, k, v, g, b, 'InitialState', h0);
%!   [o2, S2] = la (f, q, k, v, g, b, 'InitialState', h0);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%!   msg = '';
%!   try
%!     feval (f, q, k, v, g);
%!   catch err
%!     msg = err.message;
%!   end
%!   assert (numel (strfind (msg, [f ':'])) == 1, 'message head: %s', msg);
%! end
