//! `trace.html`: a timeline per worker in one self-contained page (the data and the
//! drawing code inline, nothing fetched), for a first look without installing a viewer.
//! Wheel zooms around the pointer, dragging pans, hovering a task shows its details;
//! the legend counts each kind of task and its total time.

use super::chrome::json_str;
use super::colors::{hex, timeline_rgb};
use super::Options;
use crate::trace::model::{Model, SpanKind};
use crate::trace::Trace;
use std::collections::HashMap;
use std::fmt::Write as _;

const PAGE_HEAD: &str = r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>StarPU trace</title>
<style>
body{font:13px sans-serif;margin:12px;color:#222}
h1{font-size:17px;margin:0 0 4px}
#info{color:#555;margin-bottom:8px}
#wrap{position:relative;border:1px solid #bbb}
canvas{display:block;width:100%}
#tip{position:absolute;pointer-events:none;background:#fffbe6;border:1px solid #999;padding:4px 6px;white-space:pre;display:none;font:12px monospace}
#legend span.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin:0 4px 0 12px;border:1px solid #555}
table{border-collapse:collapse;margin-top:8px}td,th{padding:2px 8px;text-align:right}th{background:#eee}
</style></head><body>
<h1>StarPU trace</h1><div id="info"></div>
<div id="wrap"><canvas id="c"></canvas><div id="tip"></div></div>
<div id="legend"></div><div id="stats"></div>
<script>
"#;

const PAGE_SCRIPT: &str = r#"
const LABEL=110, ROW=28, AXIS=24;
const cv=document.getElementById('c'), ctx=cv.getContext('2d'), tip=document.getElementById('tip');
let t0=0, t1=Math.max(DATA.end,1e-6);
document.getElementById('info').textContent=DATA.tasks.length+' tasks on '+DATA.workers.length+' workers, '+fmt(DATA.end)+' in all. Wheel: zoom, drag: pan, hover: details.';
function fmt(us){return us>=1e6?(us/1e6).toFixed(3)+' s':us>=1e3?(us/1e3).toFixed(3)+' ms':us.toFixed(1)+' us';}
function size(){cv.width=cv.clientWidth*devicePixelRatio;cv.height=(AXIS+ROW*DATA.workers.length+ROW)*devicePixelRatio;cv.style.height=(cv.height/devicePixelRatio)+'px';draw();}
function x(t){return LABEL+(t-t0)/(t1-t0)*(cv.clientWidth-LABEL-8);}
function draw(){
 ctx.setTransform(devicePixelRatio,0,0,devicePixelRatio,0,0);
 const W=cv.clientWidth;ctx.clearRect(0,0,W,cv.height);ctx.font='12px sans-serif';
 ctx.fillStyle='#222';ctx.strokeStyle='#ccc';
 const step=Math.pow(10,Math.floor(Math.log10((t1-t0)/5||1)));
 for(let t=Math.ceil(t0/step)*step;t<=t1;t+=step){const px=x(t);ctx.beginPath();ctx.moveTo(px,AXIS-4);ctx.lineTo(px,cv.height);ctx.stroke();ctx.fillText(fmt(t),px+2,12);}
 DATA.workers.forEach((w,i)=>{const y=AXIS+i*ROW;ctx.fillStyle='#222';ctx.fillText(w,4,y+ROW/2+4);ctx.fillStyle='#f4f4f4';ctx.fillRect(LABEL,y+2,W-LABEL-8,ROW-4);});
 for(const s of DATA.spans){
  const [w,a,b,k,ti]=s; if(b<t0||a>t1)continue;
  const y=AXIS+w*ROW, xa=Math.max(x(a),LABEL), xb=Math.max(x(b),xa+0.5);
  ctx.fillStyle=k==0?DATA.kinds[DATA.tasks[ti][1]][1]:k==2?'#004dcc':'#e6e6e6';
  const h=k==0?ROW-6:k==3?ROW-14:ROW-10; ctx.fillRect(xa,y+(ROW-h)/2,xb-xa,h);
  if(k==0&&xb-xa>40){ctx.fillStyle='#fff';ctx.fillText(DATA.kinds[DATA.tasks[ti][1]][0],xa+3,y+ROW/2+4,xb-xa-6);}
 }
 const yu=AXIS+DATA.workers.length*ROW;ctx.fillStyle='#222';ctx.fillText('user events',4,yu+ROW/2+4);
 for(const e of DATA.events){const px=x(e[0]);if(px<LABEL)continue;ctx.fillStyle='#c00';ctx.beginPath();ctx.moveTo(px,yu+4);ctx.lineTo(px-4,yu+14);ctx.lineTo(px+4,yu+14);ctx.fill();}
}
function hit(mx,my){const w=Math.floor((my-AXIS)/ROW);if(w<0||w>=DATA.workers.length)return null;
 const t=t0+(mx-LABEL)/(cv.clientWidth-LABEL-8)*(t1-t0), slack=(t1-t0)/cv.clientWidth*2;
 for(const s of DATA.spans){if(s[0]==w&&s[1]-slack<=t&&t<=s[2]+slack)return s;}return null;}
let drag=null;
cv.addEventListener('wheel',e=>{e.preventDefault();const r=cv.getBoundingClientRect();const mx=e.clientX-r.left;if(mx<LABEL)return;
 const t=t0+(mx-LABEL)/(cv.clientWidth-LABEL-8)*(t1-t0), f=e.deltaY<0?0.8:1.25;t0=t-(t-t0)*f;t1=t+(t1-t)*f;draw();},{passive:false});
cv.addEventListener('mousedown',e=>{drag=[e.clientX,t0,t1];});
window.addEventListener('mouseup',()=>{drag=null;});
cv.addEventListener('mousemove',e=>{const r=cv.getBoundingClientRect(),mx=e.clientX-r.left,my=e.clientY-r.top;
 if(drag){const d=(e.clientX-drag[0])/(cv.clientWidth-LABEL-8)*(drag[2]-drag[1]);t0=drag[1]-d;t1=drag[2]-d;draw();return;}
 const s=hit(mx,my);if(!s){tip.style.display='none';return;}
 const names=['task','','callback','sleeping'];let txt=names[s[3]]+'  '+fmt(s[2]-s[1])+'\nfrom '+fmt(s[1])+' to '+fmt(s[2])+'\non '+DATA.workers[s[0]];
 if(s[3]!=3){const t=DATA.tasks[s[4]];txt+='\n'+DATA.kinds[t[1]][0]+'  job '+t[0]+'  prio '+t[2]+'\nafter jobs: '+(t[3].length?t[3].join(' '):'none');}
 tip.textContent=txt;tip.style.display='block';tip.style.left=Math.min(mx+12,cv.clientWidth-260)+'px';tip.style.top=(my+12)+'px';});
cv.addEventListener('dblclick',()=>{t0=0;t1=Math.max(DATA.end,1e-6);draw();});
const lg=document.getElementById('legend');
DATA.kinds.forEach(k=>{lg.insertAdjacentHTML('beforeend','<span class="sw" style="background:'+k[1]+'"></span>'+k[0].replace(/</g,'&lt;')+' ('+k[2]+', '+fmt(k[3])+')');});
let st='<table><tr><th>worker</th><th>tasks</th><th>executing</th><th>sleeping</th><th>busy</th></tr>';
DATA.workers.forEach((w,i)=>{let n=0,ex=0,sl=0;for(const s of DATA.spans){if(s[0]!=i)continue;if(s[3]==0){n++;ex+=s[2]-s[1];}if(s[3]==3)sl+=s[2]-s[1];}
 st+='<tr><td>'+w+'</td><td>'+n+'</td><td>'+fmt(ex)+'</td><td>'+fmt(sl)+'</td><td>'+(100*ex/Math.max(DATA.end,1e-9)).toFixed(1)+' %</td></tr>';});
document.getElementById('stats').innerHTML=st+'</table>';
window.addEventListener('resize',size);size();
</script></body></html>
"#;

/// The timeline page.
pub fn timeline_html(trace: &Trace, m: &Model, opts: &Options) -> String {
    let _ = opts;
    let us = |t: u64| t.saturating_sub(m.start_ns) as f64 / 1e3;
    // Kinds of task: name, colour, count, total time.
    let mut kinds: Vec<(String, String, u64, f64)> = Vec::new();
    let mut kind_of: HashMap<(String, u32), usize> = HashMap::new();
    let mut task_kind = vec![0usize; m.tasks.len()];
    for (i, t) in m.tasks.iter().enumerate() {
        let key = (t.label().to_string(), t.color);
        let k = *kind_of.entry(key).or_insert_with(|| {
            kinds.push((
                t.label().to_string(),
                hex(timeline_rgb(t.label(), t.color)),
                0,
                0.0,
            ));
            kinds.len() - 1
        });
        task_kind[i] = k;
        if let (Some(s), Some(e)) = (t.start_ns, t.end_ns) {
            kinds[k].2 += 1;
            kinds[k].3 += e.saturating_sub(s) as f64 / 1e3;
        }
    }
    let mut d = String::from("const DATA={");
    let workers: Vec<String> = trace.workers.iter().map(|w| json_str(&w.name)).collect();
    let _ = write!(d, "\"workers\":[{}],", workers.join(","));
    let _ = write!(d, "\"end\":{:.3},", us(m.end_ns));
    d.push_str("\"kinds\":[");
    for (i, (name, color, n, total)) in kinds.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(d, "{sep}[{},\"{color}\",{n},{total:.3}]", json_str(name));
    }
    d.push_str("],\"tasks\":[");
    for (i, t) in m.tasks.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(
            d,
            "{sep}[{},{},{},{:?}]",
            t.id, task_kind[i], t.priority, t.deps
        );
    }
    d.push_str("],\"spans\":[");
    let mut first = true;
    for (w, spans) in m.spans.iter().enumerate() {
        for s in spans {
            let (k, ti) = match s.kind {
                SpanKind::Executing(i) => (0, i),
                SpanKind::Callback(i) => (2, i),
                SpanKind::Sleeping => (3, 0),
            };
            let sep = if first { "" } else { "," };
            first = false;
            let _ = write!(d, "{sep}[{w},{:.3},{:.3},{k},{ti}]", us(s.start), us(s.end));
        }
    }
    d.push_str("],\"events\":[");
    for (i, e) in m.user_events.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(d, "{sep}[{:.3},{}]", us(e.time), json_str(&e.value));
    }
    d.push_str("]};");
    // The data must not close the script element early.
    let d = d.replace("</", "<\\/");
    format!("{PAGE_HEAD}{d}{PAGE_SCRIPT}")
}
