;; The pass of JsonDepthScanner (json-depth.ts) in WebAssembly, as json-depth-js.ts does it in
;; JavaScript: the same states, the same spans. json-depth-wasm.ts feeds it and keeps each
;; scanner's state between calls; scripts/build-json-depth-wasm.js turns this text into
;; json-depth-wasm.bytes.ts.
;;
;; Memory: the state at 0, as i32 at byte 4k: 0 depth, 1 in a string, 2 the previous byte was an
;; escaping backslash, 3 the depth at which items open (-1 until known), 4 in an item, 5 the
;; position in the top-level list, 6 the open item's start, 7 its members, 8 whether it is spaced,
;; 9 the body offset of the input's first byte, 10 the depth limit, 11 (out) spans written. The
;; input at 1024, 32 KB at most a call; the spans of the items closed during the call at 33792,
;; five i32 each (position, start, end, members, spaced): at most one per `{` of the input, plus
;; the item open before it.
(module
  (memory (export "memory") 6)
  (func (export "scan") (param $len i32) (result i32)
    (local $i i32) (local $mask i32) (local $end i32) (local $b i32) (local $out i32) (local $result i32)
    (local $depth i32) (local $inString i32) (local $escaped i32) (local $itemDepth i32)
    (local $inItem i32) (local $itemIndex i32) (local $start i32) (local $members i32)
    (local $spaced i32) (local $offset i32) (local $maxDepth i32) (local $spans i32)
    (local.set $depth (i32.load (i32.const 0)))
    (local.set $inString (i32.load (i32.const 4)))
    (local.set $escaped (i32.load (i32.const 8)))
    (local.set $itemDepth (i32.load (i32.const 12)))
    (local.set $inItem (i32.load (i32.const 16)))
    (local.set $itemIndex (i32.load (i32.const 20)))
    (local.set $start (i32.load (i32.const 24)))
    (local.set $members (i32.load (i32.const 28)))
    (local.set $spaced (i32.load (i32.const 32)))
    (local.set $offset (i32.sub (i32.load (i32.const 36)) (i32.const 1024)))
    (local.set $maxDepth (i32.load (i32.const 40)))
    (local.set $spans (i32.const 0))
    (local.set $out (i32.const 33792))
    (local.set $i (i32.const 1024))
    (local.set $end (i32.add (i32.const 1024) (local.get $len)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (if (local.get $inString)
          (then
            (block $closed
              (loop $string
                (br_if $closed (i32.ge_u (local.get $i) (local.get $end)))
                ;; Sixteen bytes at a time while none is a quote or a backslash.
                (if (i32.eqz (local.get $escaped))
                  (then
                    (block $found
                      (loop $wide
                        (br_if $found (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end)))
                        (local.set $mask (i8x16.bitmask (v128.or
                          (i8x16.eq (v128.load (local.get $i)) (v128.const i8x16 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22 0x22))
                          (i8x16.eq (v128.load (local.get $i)) (v128.const i8x16 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c 0x5c)))))
                        (if (local.get $mask)
                          (then (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $mask)))) (br $found)))
                        (local.set $i (i32.add (local.get $i) (i32.const 16)))
                        (br $wide)))))
                (br_if $closed (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $b (i32.load8_u (local.get $i)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (if (local.get $escaped)
                  (then (local.set $escaped (i32.const 0)) (br $string)))
                (if (i32.eq (local.get $b) (i32.const 0x5c))
                  (then (local.set $escaped (i32.const 1)) (br $string)))
                (br_if $string (i32.ne (local.get $b) (i32.const 0x22)))
                (local.set $inString (i32.const 0))))
            (br $next)))
        (local.set $b (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.eq (local.get $b) (i32.const 0x22))
          (then (local.set $inString (i32.const 1)) (br $next)))
        (if (i32.or (i32.eq (local.get $b) (i32.const 0x5b)) (i32.eq (local.get $b) (i32.const 0x7b)))
          (then
            (if (i32.lt_s (local.get $itemDepth) (i32.const 0))
              (then (local.set $itemDepth (i32.eq (local.get $b) (i32.const 0x5b)))))
            (if (i32.and (i32.eq (local.get $b) (i32.const 0x7b)) (i32.eq (local.get $depth) (local.get $itemDepth)))
              (then
                (local.set $inItem (i32.const 1))
                (local.set $start (i32.add (local.get $offset) (i32.sub (local.get $i) (i32.const 1))))
                (local.set $members (i32.const 0))
                (local.set $spaced (i32.const 0))))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (if (i32.gt_s (local.get $depth) (local.get $maxDepth))
              (then (local.set $result (i32.const 1)) (br $done)))
            (br $next)))
        (if (i32.or (i32.eq (local.get $b) (i32.const 0x5d)) (i32.eq (local.get $b) (i32.const 0x7d)))
          (then
            (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
            (if (i32.and (i32.eq (local.get $depth) (local.get $itemDepth)) (local.get $inItem))
              (then
                (i32.store (local.get $out) (local.get $itemIndex))
                (i32.store offset=4 (local.get $out) (local.get $start))
                (i32.store offset=8 (local.get $out) (i32.add (local.get $offset) (local.get $i)))
                (i32.store offset=12 (local.get $out) (local.get $members))
                (i32.store offset=16 (local.get $out) (local.get $spaced))
                (local.set $out (i32.add (local.get $out) (i32.const 20)))
                (local.set $spans (i32.add (local.get $spans) (i32.const 1)))
                (local.set $inItem (i32.const 0))))
            (br $next)))
        (if (local.get $inItem)
          (then
            (if (i32.eq (local.get $b) (i32.const 0x3a))
              (then (local.set $members (i32.add (local.get $members) (i32.const 1))))
              (else (if (i32.le_u (local.get $b) (i32.const 0x20)) (then (local.set $spaced (i32.const 1))))))
            (br $next)))
        (if (i32.and (i32.eq (local.get $b) (i32.const 0x2c)) (i32.eq (local.get $depth) (local.get $itemDepth)))
          (then (local.set $itemIndex (i32.add (local.get $itemIndex) (i32.const 1)))))
        (br $next)))
    (i32.store (i32.const 0) (local.get $depth))
    (i32.store (i32.const 4) (local.get $inString))
    (i32.store (i32.const 8) (local.get $escaped))
    (i32.store (i32.const 12) (local.get $itemDepth))
    (i32.store (i32.const 16) (local.get $inItem))
    (i32.store (i32.const 20) (local.get $itemIndex))
    (i32.store (i32.const 24) (local.get $start))
    (i32.store (i32.const 28) (local.get $members))
    (i32.store (i32.const 32) (local.get $spaced))
    (i32.store (i32.const 36) (i32.add (i32.add (local.get $offset) (i32.const 1024)) (local.get $len)))
    (i32.store (i32.const 44) (local.get $spans))
    (local.get $result)))
